export { MULTIPART_LIMITS } from './multipart';
export { receiveUpload } from './uploads.service';
export { uploadRoutes } from './uploads.routes';
