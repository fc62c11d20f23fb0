import dayjs from 'dayjs';

export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY') : '-');
export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('MMM D, YYYY h:mm A') : '-');
