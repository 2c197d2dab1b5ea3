export { MULTIPART_LIMITS, readSingleFile } from './multipart';
export { receiveUpload, storeUpload } from './uploads.service';
export { uploadRoutes } from './uploads.routes';
