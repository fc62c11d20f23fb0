/** A PDF served from a signed same-origin address, shown in the browser's own viewer. */
export function PdfFrame({ src, title }: { src: string; title: string }) {
  return (
    <iframe
      src={src}
      title={title}
      style={{
        width: '100%',
        height: 'max(360px, calc(100dvh - 300px))',
        border: '1px solid var(--mantine-color-gray-4)',
        borderRadius: 8,
        background: '#fff',
      }}
    />
  );
}
