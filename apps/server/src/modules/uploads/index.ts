export { MULTIPART_LIMITS } from './multipart';
export { contentDisposition, newStorageKey, receiveUpload, uploadContext } from './uploads.service';
export { uploadRoutes } from './uploads.routes';
