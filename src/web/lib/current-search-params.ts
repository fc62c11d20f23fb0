/**
 * The address's query as it is now. react-router's functional setter hands back the query of the last
 * render, so a change made later (a debounced search, a modal closing) would undo whatever came between.
 */
export const currentSearchParams = () => new URLSearchParams(window.location.search);
