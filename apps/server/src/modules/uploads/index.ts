export { MULTIPART_LIMITS, readSingleFile } from './multipart';
export { receiveUpload, storeUpload, type UploadOwner } from './uploads.service';
export { uploadRoutes } from './uploads.routes';
