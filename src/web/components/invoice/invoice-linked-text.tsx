import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** An activity line with each "#17" a link to that invoice on Transactions (docs/design.md §10). */
export function InvoiceLinkedText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(#\d{1,9}\b)/).map((part, index) =>
        /^#\d+$/.test(part) ? (
          <Anchor key={index} component={Link} to={`/invoices?invoice=${part.slice(1)}`} inherit aria-label={`Invoice ${part}`}>
            {part}
          </Anchor>
        ) : (
          part
        ),
      )}
    </>
  );
}
