import { z } from 'zod';
import { TAX_CERTIFICATE_KINDS, TAX_COMPONENTS, TAX_COMPONENTS_BY_COUNTRY, type TaxComponent } from '../rules/taxes';
import { uploadPublicId } from './uploads';

/*
 * Taxes (issue 17 points 5 and 6, decision 127).
 *   GET  /api/admin/taxes/{token}                       (Admin) → adminTaxRates: per state/province the rate in force
 *                                                       today and the scheduled versions
 *   POST /api/admin/taxes/{token}  adminTaxRateCreate    (Admin) → 201 adminTaxState (a version from effective_on ≥ today)
 *   GET  /api/taxcertificates/{token}?store_id=|expiring=30       → taxCertificateList
 *   POST /api/taxcertificates/upload/{token}  multipart, field `certificate` → uploadInfo (pdf, jpeg, png; magic bytes)
 *   POST /api/taxcertificates/{token}  taxCertificateCreate         → 201 taxCertificate
 *   POST /api/taxcertificates/{certificateId}/revoke/{token}        → taxCertificate
 * Certificates: session route #/arizona; reading needs customer_details_view or _edit, recording and revoking
 * customer_details_edit (decision 127).
 */

const MAX_ID = 2_147_483_647;
const isoDate = (what: string) => z.iso.date({ message: `Enter the ${what} as YYYY-MM-DD.` });
const id = (what: string) =>
  z.coerce
    .number({ message: `Enter the ${what} (a number).` })
    .int({ message: `The ${what} is a whole number.` })
    .positive({ message: `The ${what} is a positive number.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });

export const taxRateComponent = z.object({
  component: z.enum(TAX_COMPONENTS),
  rate_basis_points: z.number().int(),
  label: z.string(),
});

export const taxRateVersion = z.object({
  effective_on: z.string(),
  rate_basis_points: z.number().int(),
  label: z.string(),
  components: z.array(taxRateComponent),
  created_by: z.string().nullable(),
});
export type TaxRateVersion = z.infer<typeof taxRateVersion>;

export const adminTaxState = z.object({
  country: z.enum(['US', 'CA']),
  state: z.string(),
  state_name: z.string(),
  current: taxRateVersion.nullable(),
  scheduled: z.array(taxRateVersion),
});
export type AdminTaxState = z.infer<typeof adminTaxState>;

export const adminTaxRates = z.object({ today: z.string(), states: z.array(adminTaxState) });
export type AdminTaxRates = z.infer<typeof adminTaxRates>;

export const TAX_LABEL_MAX = 60;

export const adminTaxRateCreate = z
  .object({
    country: z.enum(['US', 'CA'], { message: 'Choose US or CA.' }),
    state: z.string().trim().toUpperCase().min(2, { message: 'Choose the state or province.' }).max(3),
    effective_on: isoDate('effective date'),
    components: z
      .array(
        z.object({
          component: z.enum(TAX_COMPONENTS, { message: 'Choose GST, HST, PST or STATE.' }),
          rate_basis_points: z
            .number({ message: 'Enter the rate in basis points (1 % = 100).' })
            .int({ message: 'The rate is a whole number of basis points (1 % = 100).' })
            .min(0, { message: 'The rate is 0 or more.' })
            .max(10_000, { message: 'The rate is at most 100 % (10,000 basis points).' }),
          label: z.string().trim().max(TAX_LABEL_MAX).optional(),
        }),
        { message: 'Send the components of the rate.' },
      )
      .min(1, { message: 'Send at least one component.' })
      .max(3),
  })
  .strict()
  .superRefine((body, ctx) => {
    const allowed: readonly TaxComponent[] = TAX_COMPONENTS_BY_COUNTRY[body.country];
    const seen = new Set<string>();
    body.components.forEach((c, i) => {
      if (!allowed.includes(c.component))
        ctx.addIssue({
          code: 'custom',
          path: ['components', i, 'component'],
          message: `${c.component} is not a ${body.country === 'US' ? 'US state' : 'Canadian'} tax: use ${allowed.join(', ')}.`,
        });
      if (seen.has(c.component))
        ctx.addIssue({ code: 'custom', path: ['components', i, 'component'], message: `${c.component} is twice.` });
      seen.add(c.component);
    });
    if (seen.has('HST') && (seen.has('GST') || seen.has('PST')))
      ctx.addIssue({
        code: 'custom',
        path: ['components'],
        message: 'HST replaces GST and PST: send HST alone, or GST and PST.',
      });
  });
export type AdminTaxRateCreate = z.infer<typeof adminTaxRateCreate>;
export type AdminTaxRateCreateInput = z.input<typeof adminTaxRateCreate>;

export const CERTIFICATE_NUMBER_MAX = 40;

export const taxCertificateCreate = z
  .object({
    store_id: id('store id'),
    kind: z.enum(TAX_CERTIFICATE_KINDS, { message: 'Choose TPT or RESALE.' }),
    certificate_number: z
      .string({ message: 'Enter the certificate number.' })
      .trim()
      .min(1, { message: 'Enter the certificate number.' })
      .max(CERTIFICATE_NUMBER_MAX, { message: `At most ${CERTIFICATE_NUMBER_MAX} characters.` })
      .regex(/^[A-Za-z0-9-]+$/, { message: 'Letters, digits and dashes only.' }),
    expires_on: isoDate('expiry date'),
    /** The certificate file, uploaded first by the same user (POST /api/taxcertificates/upload/{token}). */
    upload_id: uploadPublicId,
  })
  .strict();
export type TaxCertificateCreate = z.infer<typeof taxCertificateCreate>;

export const taxCertificateQuery = z
  .object({
    store_id: id('store id').optional(),
    expiring: z.coerce
      .number({ message: 'Enter the number of days.' })
      .int()
      .min(0, { message: 'Enter 0 to 365 days.' })
      .max(365, { message: 'Enter 0 to 365 days.' })
      .optional(),
  })
  .strict()
  .refine((q) => q.store_id !== undefined || q.expiring !== undefined, {
    path: ['store_id'],
    message: 'Send a store id or expiring=<days>.',
  });

export const taxCertificate = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  store_id: z.number().int().nullable(),
  store_name: z.string().nullable(),
  state: z.string(),
  kind: z.enum(TAX_CERTIFICATE_KINDS),
  certificate_number: z.string(),
  expires_on: z.string().nullable(),
  upload_id: uploadPublicId.nullable(),
  file_name: z.string().nullable(),
  status: z.enum(['valid', 'expiring', 'expired', 'revoked']),
  created_at: z.string(),
  created_by: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type TaxCertificate = z.infer<typeof taxCertificate>;

export const taxCertificateList = z.object({ today: z.string(), items: z.array(taxCertificate) });
export type TaxCertificateList = z.infer<typeof taxCertificateList>;

export const taxCertificateParams = z.object({ certificateId: id('certificate id'), token: z.string() });
