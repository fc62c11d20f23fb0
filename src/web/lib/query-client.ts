import { onlineManager, QueryClient } from '@tanstack/react-query';

/** The one query cache: main.tsx provides it to the screens, and app/router.tsx fills it while a signed-in address loads. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

/* TanStack Query starts online and only hears later changes: a page opened without network starts offline (docs/design.md §2). */
if (typeof navigator !== 'undefined' && !navigator.onLine) onlineManager.setOnline(false);
