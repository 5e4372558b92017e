// Fault injection for the load run (docs/PERFORMANCE.md): a wrapper around the D1
// binding whose batches — every write of the host is one batch — fail at a
// given rate, half of them before the database runs them and half after it
// committed them (the answer is lost, as a dropped connection would lose it).
// Enabled only by the FAULT_WRITE_RATE variable; scripts/workers-host load
// sets it, `serve` and `test` do not.

/** The part of the D1 binding the host uses. */
export interface Db {
  prepare(query: string): D1PreparedStatement;
  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]>;
}

/** The error a failed write throws. */
export class InjectedFault extends Error {
  override readonly name = "InjectedFault";
}

/** `db` with writes failing at `rate` (0 ..= 1). */
export function failingWrites(db: Db, rate: number): Db {
  if (!(rate > 0)) return db;
  return {
    prepare: (query) => db.prepare(query),
    batch: async <T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> => {
      const draw = Math.random();
      if (draw < rate / 2) throw new InjectedFault("injected: write refused before the database ran it");
      const results = await db.batch<T>(statements);
      if (draw < rate) throw new InjectedFault("injected: write committed, answer lost");
      return results;
    },
  };
}
