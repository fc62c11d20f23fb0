import { sql, type Placeholder } from 'drizzle-orm';
import type { Conn } from './client.ts';

/**
 * A statement of one fixed shape, built by drizzle once per database handle or transaction and run as a
 * named prepared statement: PostgreSQL plans it once per connection and drizzle builds its SQL only once.
 */
export function preparedOnce<S>(build: (conn: Conn) => S): (conn: Conn) => S {
  const byConn = new WeakMap<Conn, S>();
  return (conn) => {
    let statement = byConn.get(conn);
    if (!statement) {
      statement = build(conn);
      byConn.set(conn, statement);
    }
    return statement;
  };
}

/** A placeholder for a value: either a named placeholder of a prepared statement, or the value itself. */
export type Bind = <T>(name: string, value: T) => T | Placeholder;

/** Values written straight into a statement built for one run. */
export const literal: Bind = (_name, value) => value;

/**
 * The values of one statement's placeholders, and its shape: the names bound and the value-less parts marked,
 * in order. Conditions that vary (filters, searches) give one SQL text per shape, so each shape is prepared once.
 */
export class Bindings {
  private readonly parts: string[] = [];
  readonly values: Record<string, unknown> = {};

  readonly bind: Bind = (name, value) => {
    this.parts.push(name);
    this.values[name] = value;
    return sql.placeholder(name);
  };

  /** A part of the statement that takes no value but changes its text. */
  mark(part: string): void {
    this.parts.push(part);
  }

  get shape(): string {
    return this.parts.join(',');
  }
}

/**
 * Prepared statements per shape (see Bindings). A shape's statement name is the same on every connection and
 * always stands for the same SQL text, as node-postgres requires of named statements.
 */
export function preparedPerShape<S>(prefix: string): (conn: Conn, shape: string, build: (name: string) => S) => S {
  const names = new Map<string, string>();
  const byConn = new WeakMap<Conn, Map<string, S>>();
  return (conn, shape, build) => {
    let statements = byConn.get(conn);
    if (!statements) {
      statements = new Map();
      byConn.set(conn, statements);
    }
    let statement = statements.get(shape);
    if (!statement) {
      let name = names.get(shape);
      if (!name) {
        name = `${prefix}_${names.size + 1}`;
        names.set(shape, name);
      }
      statement = build(name);
      statements.set(shape, statement);
    }
    return statement;
  };
}
