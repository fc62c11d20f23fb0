/** What each list's search finds, shown by the info button beside the search box. */
export const SEARCH_HINTS = {
  invoices:
    'Finds invoices by number (17 or #17), origin or destination branch, route name, courier (Assigned To), pad number, series (e.g. 100251-100300) or any receipt number inside a pad.',
  pads: 'Finds pads by pad number, series (e.g. 100251-100300) or any receipt number inside a pad.',
  reports: 'Finds reports by report number or the name of the person who generated them.',
} as const;
