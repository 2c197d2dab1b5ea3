import { UPLOAD_MAX_BYTES } from '../limits';
import { assertNever } from '../util/assert-never';

/** File types the product recognises, by content. */
export const FILE_TYPES = ['png', 'jpeg', 'gif', 'pdf', 'heic'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Extensions and content types of each file type. */
export const FILE_TYPE_EXTENSIONS: Readonly<Record<FileType, readonly string[]>> = {
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  gif: ['gif'],
  pdf: ['pdf'],
  heic: ['heic', 'heif'],
};
export const FILE_TYPE_CONTENT_TYPES: Readonly<Record<FileType, readonly string[]>> = {
  png: ['image/png'],
  jpeg: ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  gif: ['image/gif'],
  pdf: ['application/pdf'],
  heic: ['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'],
};

/**
 * Upload kinds and the file types each accepts (spec §5, §3):
 * - storePicture: jpg, jpeg, png, gif, heic;
 * - businessLicense: jpg, jpeg, png, pdf, heic;
 * - contract: pdf, jpeg, png, gif;
 * - resellerFile: png only;
 * - checkImage, achCadImage (multipart fields 'checkimage', 'achcadimage'): the spec gives no list —
 *   decision: jpg, jpeg, png, gif, pdf (a photo or a scan of a cheque / bank letter; no HEIC, which
 *   back-office viewers cannot show).
 */
export const UPLOAD_KINDS = {
  storePicture: {
    label: 'Store pictures',
    types: ['jpeg', 'png', 'gif', 'heic'],
    extensions: ['jpg', 'jpeg', 'png', 'gif', 'heic'],
  },
  businessLicense: {
    label: 'Business licenses',
    types: ['jpeg', 'png', 'pdf', 'heic'],
    extensions: ['jpg', 'jpeg', 'png', 'pdf', 'heic'],
  },
  contract: {
    label: 'Contracts',
    types: ['pdf', 'jpeg', 'png', 'gif'],
    extensions: ['pdf', 'jpg', 'jpeg', 'png', 'gif'],
  },
  resellerFile: { label: 'Reseller files', types: ['png'], extensions: ['png'] },
  checkImage: {
    label: 'Check images',
    types: ['jpeg', 'png', 'gif', 'pdf'],
    extensions: ['jpg', 'jpeg', 'png', 'gif', 'pdf'],
    multipartField: 'checkimage',
  },
  achCadImage: {
    label: 'Bank account images',
    types: ['jpeg', 'png', 'gif', 'pdf'],
    extensions: ['jpg', 'jpeg', 'png', 'gif', 'pdf'],
    multipartField: 'achcadimage',
  },
  // Issue 17 (decision 127): an Arizona TPT / resale certificate — a scan or a photo.
  taxCertificate: {
    label: 'Tax certificates',
    types: ['pdf', 'jpeg', 'png'],
    extensions: ['pdf', 'jpg', 'jpeg', 'png'],
    multipartField: 'certificate',
  },
} as const satisfies Record<
  string,
  {
    label: string;
    types: readonly FileType[];
    extensions: readonly string[];
    multipartField?: string;
  }
>;
export type UploadKind = keyof typeof UPLOAD_KINDS;
export const UPLOAD_KIND_NAMES = Object.keys(UPLOAD_KINDS) as UploadKind[];

export function isUploadKind(value: unknown): value is UploadKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(UPLOAD_KINDS, value);
}

/** The `accept` attribute for a file input of this kind, e.g. '.png,image/png'. */
export function uploadAccept(kind: UploadKind): string {
  const rule = UPLOAD_KINDS[kind];
  const exts = rule.extensions.map((e) => `.${e}`);
  const types = (rule.types as readonly FileType[]).flatMap((t) => FILE_TYPE_CONTENT_TYPES[t]);
  return [...exts, ...types].join(',');
}

export type UploadErrorCode =
  | 'missing_name'
  | 'empty_file'
  | 'too_large'
  | 'bad_extension'
  | 'bad_content_type'
  | 'unrecognized_content'
  | 'content_not_allowed'
  | 'name_content_mismatch';

export type UploadCheck =
  { readonly ok: true } | { readonly ok: false; readonly code: UploadErrorCode; readonly message: string };

export interface UploadDescription {
  readonly kind: UploadKind;
  readonly fileName: string;
  /** The declared (browser / multipart) content type. */
  readonly contentType: string;
  readonly size: number;
}

function listWords(items: readonly string[]): string {
  const upper = items.map((i) => i.toUpperCase());
  if (upper.length <= 1) return upper.join('');
  return `${upper.slice(0, -1).join(', ')} or ${upper[upper.length - 1]}`;
}

/** 'Store pictures must be JPG, JPEG, PNG, GIF or HEIC files.' */
export function uploadTypeMessage(kind: UploadKind): string {
  const rule = UPLOAD_KINDS[kind];
  return rule.extensions.length === 1
    ? `${rule.label} must be ${listWords(rule.extensions)} files only.`
    : `${rule.label} must be ${listWords(rule.extensions)} files.`;
}

export const UPLOAD_TOO_LARGE_MESSAGE = 'The file is larger than 5 MB (5,242,880 bytes).';

function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** A declared content type without parameters, lower-cased ('Image/PNG; x=1' → 'image/png'). */
function baseContentType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Check a described upload: size 1..5,242,880 bytes, extension allowed for the kind, and declared content
 * type matching the extension's file type. An empty declared type or 'application/octet-stream' is
 * accepted (browsers send those for HEIC and unknown files); the bytes are checked on the server with
 * `validateUploadBytes` anyway.
 */
export function validateUpload(upload: UploadDescription): UploadCheck {
  const rule = UPLOAD_KINDS[upload.kind];
  const name = upload.fileName.trim();
  if (name === '') return { ok: false, code: 'missing_name', message: 'The file has no name.' };
  if (!Number.isFinite(upload.size) || upload.size <= 0) {
    return { ok: false, code: 'empty_file', message: 'The file is empty.' };
  }
  if (upload.size > UPLOAD_MAX_BYTES) {
    return { ok: false, code: 'too_large', message: UPLOAD_TOO_LARGE_MESSAGE };
  }
  const ext = fileExtension(name);
  if (!(rule.extensions as readonly string[]).includes(ext)) {
    return { ok: false, code: 'bad_extension', message: uploadTypeMessage(upload.kind) };
  }
  const declared = baseContentType(upload.contentType);
  if (declared === '' || declared === 'application/octet-stream') return { ok: true };
  const typeOfExt = (rule.types as readonly FileType[]).find((t) => FILE_TYPE_EXTENSIONS[t].includes(ext));
  if (!typeOfExt || !FILE_TYPE_CONTENT_TYPES[typeOfExt].includes(declared)) {
    return {
      ok: false,
      code: 'bad_content_type',
      message: `The file's type (${declared}) does not match its .${ext} name. ${uploadTypeMessage(upload.kind)}`,
    };
  }
  return { ok: true };
}

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const PDF_SIGNATURE = ascii('%PDF-');
const FTYP = ascii('ftyp');
/** ISO-BMFF major brands of HEIC/HEIF still images and sequences. */
const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1'];

/** Detect the file type from its first bytes (magic numbers); null when not one of FILE_TYPES. */
export function sniffFileType(bytes: Uint8Array): FileType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'gif';
  if (startsWith(bytes, PDF_SIGNATURE)) return 'pdf';
  if (startsWith(bytes, FTYP, 4) && bytes.length >= 12) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (HEIF_BRANDS.includes(brand)) return 'heic';
  }
  return null;
}

/** Human name of a sniffed type, for messages. */
export function fileTypeName(type: FileType): string {
  switch (type) {
    case 'png':
      return 'PNG';
    case 'jpeg':
      return 'JPEG';
    case 'gif':
      return 'GIF';
    case 'pdf':
      return 'PDF';
    case 'heic':
      return 'HEIC';
    default:
      return assertNever(type);
  }
}

/**
 * Check the actual bytes of an upload: non-empty, at most 5,242,880 bytes, and a content type (by magic
 * bytes) that the kind accepts. With `fileName`, the bytes must also be the type the name's extension says
 * (a PNG named '.pdf' is refused even where both PNG and PDF are allowed). On success the sniffed type is
 * returned so the server can store the file under a generated name with the right extension.
 */
export function validateUploadBytes(
  kind: UploadKind,
  bytes: Uint8Array,
  fileName?: string,
): { readonly ok: true; readonly type: FileType } | Extract<UploadCheck, { ok: false }> {
  if (bytes.length === 0) return { ok: false, code: 'empty_file', message: 'The file is empty.' };
  if (bytes.length > UPLOAD_MAX_BYTES) {
    return { ok: false, code: 'too_large', message: UPLOAD_TOO_LARGE_MESSAGE };
  }
  const type = sniffFileType(bytes);
  if (type === null) {
    return {
      ok: false,
      code: 'unrecognized_content',
      message: `The file's content is not a recognised image or PDF. ${uploadTypeMessage(kind)}`,
    };
  }
  if (!(UPLOAD_KINDS[kind].types as readonly FileType[]).includes(type)) {
    return {
      ok: false,
      code: 'content_not_allowed',
      message: `The file is a ${fileTypeName(type)}. ${uploadTypeMessage(kind)}`,
    };
  }
  if (fileName !== undefined) {
    const ext = fileExtension(fileName.trim());
    if (!FILE_TYPE_EXTENSIONS[type].includes(ext)) {
      return {
        ok: false,
        code: 'name_content_mismatch',
        message: `The file is a ${fileTypeName(type)} but its name ends in .${ext}. ${uploadTypeMessage(kind)}`,
      };
    }
  }
  return { ok: true, type };
}
