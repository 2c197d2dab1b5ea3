/*
 * The list-screen kit (issue 30): every list and report is built from these — state in the address, a filter bar
 * with draft and Apply, sortable headers, the caption with its (capped) total, pages, CSV export with progress,
 * empty and error states, figures right-aligned, and the open row's detail in view beside the list.
 */
export { emptyListText, ListError, listCaption } from './list-status';
export { DataTable, type DataTableProps } from './data-table';
export { DetailPane } from './detail-pane';
export { ExportCsvButton, type ExportRun } from './export-csv-button';
export { FigureCell, FigureHeader, NoWrapCell } from './cells';
export { FilterBar, LiveFilterBar } from './filter-bar';
export { formatTotal, ListPagination } from './list-pagination';
export { SortHeader } from './sort-header';
export {
  readFilters,
  useListState,
  useNestedListState,
  writeListParams,
  type FilterValues,
  type ListState,
} from './use-list-state';
export {
  bindFilter,
  currencyFilterOptions,
  FilterCheck,
  FilterCurrency,
  FilterDate,
  FilterDateRange,
  FilterAmount,
  FilterId,
  FilterMonth,
  FilterMultiSelect,
  FilterNumber,
  filterOptions,
  FilterSelect,
  FilterText,
  type FilterBinding,
} from './filter-fields';
export {
  notAmount,
  notAnId,
  notDays,
  reversedRange,
  textTooShort,
  useCheckedFilters,
  type FilterErrors,
} from './checked-filters';
