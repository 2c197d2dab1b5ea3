import { ListPagination as SharedListPagination, type ListPaginationProps } from '../../../components/list-pagination';

/**
 * Kept only for tabs/billing-items-tab.tsx, which another change is editing: it should import
 * components/list-pagination with `hideSinglePage` like the other customer lists, and this file go.
 */
export function ListPagination(props: Omit<ListPaginationProps, 'hideSinglePage'>) {
  return <SharedListPagination {...props} hideSinglePage />;
}
