export { MULTIPART_LIMITS } from './multipart';
export { contentDisposition, newStorageKey, receiveUpload } from './uploads.service';
export { uploadRoutes } from './uploads.routes';
