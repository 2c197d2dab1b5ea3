/* The CRM leads module (decision 159): a lead for the New order page, and the settings a CRM order carries. */
export { crmLeadRoutes } from './crm-leads.routes';
export { crmOrderSettingsOf } from './crm-leads.service';
