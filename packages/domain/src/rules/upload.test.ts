import { describe, expect, it } from 'vitest';
import {
  UPLOAD_KINDS,
  UPLOAD_KIND_NAMES,
  isUploadKind,
  sniffFileType,
  uploadAccept,
  uploadTypeMessage,
  validateUpload,
  validateUploadBytes,
  type UploadKind,
} from './upload';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));

/** A real 1×1 PNG (67 bytes). */
const PNG_1X1 = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF');
const GIF = bytes('GIF89a', [1, 0, 1, 0]);
const PDF = bytes('%PDF-1.7\n%âãÏÓ');
const HEIC = bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0], 'mif1heic');

const ok = { ok: true };

describe('upload kinds', () => {
  it('lists the seven kinds with their extensions (§5, our choice for check/ACH images, tax certificates: 127)', () => {
    expect(UPLOAD_KIND_NAMES).toEqual([
      'storePicture',
      'businessLicense',
      'contract',
      'resellerFile',
      'checkImage',
      'achCadImage',
      'taxCertificate',
    ]);
    expect(UPLOAD_KINDS.taxCertificate).toMatchObject({ types: ['pdf', 'jpeg', 'png'], multipartField: 'certificate' });
    expect(UPLOAD_KINDS.storePicture.extensions).toEqual(['jpg', 'jpeg', 'png', 'gif', 'heic']);
    expect(UPLOAD_KINDS.businessLicense.extensions).toEqual(['jpg', 'jpeg', 'png', 'pdf', 'heic']);
    expect(UPLOAD_KINDS.contract.types).toEqual(['pdf', 'jpeg', 'png', 'gif']);
    expect(UPLOAD_KINDS.resellerFile.extensions).toEqual(['png']);
    expect(UPLOAD_KINDS.checkImage.extensions).toEqual(['jpg', 'jpeg', 'png', 'gif', 'pdf']);
    expect(UPLOAD_KINDS.checkImage.multipartField).toBe('checkimage');
    expect(UPLOAD_KINDS.achCadImage.multipartField).toBe('achcadimage');
    expect(isUploadKind('contract')).toBe(true);
    expect(isUploadKind('avatar')).toBe(false);
  });

  it('builds an accept attribute and a human type message', () => {
    expect(uploadAccept('resellerFile')).toBe('.png,image/png');
    expect(uploadTypeMessage('storePicture')).toBe('Store pictures must be JPG, JPEG, PNG, GIF or HEIC files.');
    expect(uploadTypeMessage('resellerFile')).toBe('Reseller files must be PNG files only.');
  });
});

describe('validateUpload', () => {
  const base = { kind: 'storePicture' as UploadKind, fileName: 'front.png', contentType: 'image/png', size: 1000 };

  it('accepts 5,242,880 bytes and refuses 5,242,881', () => {
    expect(validateUpload({ ...base, size: 5_242_880 })).toEqual(ok);
    expect(validateUpload({ ...base, size: 5_242_881 })).toEqual({
      ok: false,
      code: 'too_large',
      message: 'The file is larger than 5 MB (5,242,880 bytes).',
    });
  });

  it('refuses empty files and nameless files', () => {
    expect(validateUpload({ ...base, size: 0 })).toMatchObject({ ok: false, code: 'empty_file' });
    expect(validateUpload({ ...base, fileName: '  ' })).toMatchObject({ ok: false, code: 'missing_name' });
  });

  it('checks the extension per kind, case-insensitively', () => {
    expect(validateUpload({ ...base, fileName: 'FRONT.JPG', contentType: 'image/jpeg' })).toEqual(ok);
    expect(validateUpload({ ...base, fileName: 'IMG_1.HEIC', contentType: 'image/heic' })).toEqual(ok);
    expect(validateUpload({ ...base, fileName: 'scan.pdf', contentType: 'application/pdf' })).toEqual({
      ok: false,
      code: 'bad_extension',
      message: 'Store pictures must be JPG, JPEG, PNG, GIF or HEIC files.',
    });
    expect(
      validateUpload({ ...base, kind: 'businessLicense', fileName: 'scan.pdf', contentType: 'application/pdf' }),
    ).toEqual(ok);
    expect(
      validateUpload({ ...base, kind: 'businessLicense', fileName: 'a.gif', contentType: 'image/gif' }),
    ).toMatchObject({
      code: 'bad_extension',
    });
    expect(
      validateUpload({ ...base, kind: 'resellerFile', fileName: 'r.jpg', contentType: 'image/jpeg' }),
    ).toMatchObject({
      code: 'bad_extension',
    });
    expect(validateUpload({ ...base, kind: 'resellerFile' })).toEqual(ok);
    expect(validateUpload({ ...base, fileName: 'noextension' })).toMatchObject({ code: 'bad_extension' });
    expect(validateUpload({ ...base, kind: 'contract', fileName: 'c.heic', contentType: 'image/heic' })).toMatchObject({
      code: 'bad_extension',
    });
  });

  it('checks the declared content type against the extension', () => {
    expect(validateUpload({ ...base, contentType: 'image/jpeg' })).toMatchObject({
      ok: false,
      code: 'bad_content_type',
    });
    expect(validateUpload({ ...base, kind: 'contract', fileName: 'c.pdf', contentType: 'image/png' })).toMatchObject({
      code: 'bad_content_type',
    });
    expect(validateUpload({ ...base, contentType: 'IMAGE/PNG; foo=bar' })).toEqual(ok);
    expect(validateUpload({ ...base, kind: 'checkImage', fileName: 'cheque.jpeg', contentType: 'image/jpg' })).toEqual(
      ok,
    );
  });

  it('accepts an undeclared type (browsers send none for HEIC); bytes are checked later', () => {
    expect(validateUpload({ ...base, fileName: 'x.heic', contentType: '' })).toEqual(ok);
    expect(validateUpload({ ...base, contentType: 'application/octet-stream' })).toEqual(ok);
  });
});

describe('sniffFileType', () => {
  it("sniffs a PNG's bytes as png", () => {
    expect(sniffFileType(PNG_1X1)).toBe('png');
  });

  it('sniffs jpeg, gif, pdf and heic', () => {
    expect(sniffFileType(JPEG)).toBe('jpeg');
    expect(sniffFileType(GIF)).toBe('gif');
    expect(sniffFileType(bytes('GIF87a'))).toBe('gif');
    expect(sniffFileType(PDF)).toBe('pdf');
    expect(sniffFileType(HEIC)).toBe('heic');
    expect(sniffFileType(bytes([0, 0, 0, 0x18], 'ftypmif1'))).toBe('heic');
  });

  it('returns null for anything else or too few bytes', () => {
    expect(sniffFileType(new Uint8Array())).toBeNull();
    expect(sniffFileType(PNG_1X1.subarray(0, 7))).toBeNull();
    expect(sniffFileType(bytes('<html>'))).toBeNull();
    expect(sniffFileType(bytes([0, 0, 0, 0x18], 'ftypisom'))).toBeNull(); // an MP4
    expect(sniffFileType(bytes('PK', [3, 4]))).toBeNull();
  });
});

describe('validateUploadBytes', () => {
  it('accepts content the kind allows and reports its type', () => {
    expect(validateUploadBytes('resellerFile', PNG_1X1)).toEqual({ ok: true, type: 'png' });
    expect(validateUploadBytes('contract', PDF)).toEqual({ ok: true, type: 'pdf' });
    expect(validateUploadBytes('storePicture', HEIC)).toEqual({ ok: true, type: 'heic' });
    expect(validateUploadBytes('achCadImage', JPEG)).toEqual({ ok: true, type: 'jpeg' });
  });

  it('refuses content the kind does not allow', () => {
    expect(validateUploadBytes('resellerFile', JPEG)).toEqual({
      ok: false,
      code: 'content_not_allowed',
      message: 'The file is a JPEG. Reseller files must be PNG files only.',
    });
    expect(validateUploadBytes('checkImage', HEIC)).toMatchObject({ code: 'content_not_allowed' });
  });

  it('refuses unrecognised, empty and oversized content', () => {
    expect(validateUploadBytes('storePicture', bytes('hello'))).toMatchObject({ code: 'unrecognized_content' });
    expect(validateUploadBytes('storePicture', new Uint8Array())).toMatchObject({ code: 'empty_file' });
    const big = new Uint8Array(5_242_881);
    big.set(PNG_1X1);
    expect(validateUploadBytes('storePicture', big)).toMatchObject({ code: 'too_large' });
    expect(validateUploadBytes('storePicture', big.subarray(0, 5_242_880))).toEqual({ ok: true, type: 'png' });
  });
});

describe('validateUploadBytes with a file name', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  it('refuses bytes of another type than the name says, even when both types are allowed', () => {
    expect(validateUploadBytes('contract', PNG, 'signed.pdf')).toEqual({
      ok: false,
      code: 'name_content_mismatch',
      message: expect.stringMatching(/^The file is a PNG but its name ends in \.pdf\./),
    });
    expect(validateUploadBytes('contract', PNG, 'Signed.PNG')).toEqual({ ok: true, type: 'png' });
  });
});
