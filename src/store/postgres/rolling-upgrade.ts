import type { PgMigration } from './schema.js';

/**
 * Tenant migration 5 (PostgreSQL): guards for a rolling upgrade, when API nodes of the version
 * before the document feed (tenant migration level 3) still share the schema with upgraded ones.
 * That version, on its first use of documents in a process, ran
 * `CREATE OR REPLACE FUNCTION <schema>.person_documents_follow_person() RETURNS trigger` and
 * recreated a trigger on `persons` that deleted a person's record without a document tombstone;
 * and on opening an application it wrote its own migration level (3) into `schema_version`, which
 * made the next upgraded node re-run migration 4 and fail. Three guards, all on the schema side:
 *
 * 1. `person_documents_follow_person()` is created returning text (a marker saying why). PostgreSQL
 *    refuses to change a function's return type with CREATE OR REPLACE (SQLSTATE 42P13), so an old
 *    node's document calls fail loudly (its persons keep working) and its trigger is never made.
 * 2. `schema_version` never goes down: a BEFORE UPDATE trigger keeps the higher level.
 * 3. A person delete made by an old node (which does not know document records) still removes the
 *    ext_id's record and leaves its document tombstone: a deferred constraint trigger on `persons`
 *    runs at commit, after the old code wrote the person tombstone, and does what
 *    document-repository.ts `followPersonDelete` does (the record goes when no face or fingerprint
 *    person is left; the tombstone carries the person delete's version, the clock moves past it).
 *    Upgraded nodes call followPersonDelete in the delete's transaction, so at commit the trigger
 *    finds no record and does nothing. Versions compare byte-wise (COLLATE "C"), as in src/sync/hlc.ts.
 */
export const PG_ROLLING_UPGRADE_MIGRATION: PgMigration = async (c, s) => {
  await c.query(`DROP TRIGGER IF EXISTS person_documents_follow_person ON ${s}.persons`);
  await c.query(`DROP FUNCTION IF EXISTS ${s}.person_documents_follow_person()`);
  await c.query(`CREATE FUNCTION ${s}.person_documents_follow_person() RETURNS text LANGUAGE sql IMMUTABLE AS
    $$ SELECT 'guard: document records follow persons through the person repository (tenant migration 5); a node older than this schema must be upgraded before it uses documents'::text $$`);

  await c.query(`CREATE FUNCTION ${s}.schema_version_never_lower() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.version < OLD.version THEN NEW.version := OLD.version; END IF;
      RETURN NEW;
    END $$`);
  await c.query(`CREATE TRIGGER schema_version_never_lower BEFORE UPDATE ON ${s}.schema_version FOR EACH ROW EXECUTE FUNCTION ${s}.schema_version_never_lower()`);

  await c.query(`CREATE FUNCTION ${s}.documents_follow_person_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      t RECORD;
      n BIGINT;
    BEGIN
      IF EXISTS (SELECT 1 FROM ${s}.persons WHERE modality IN ('face', 'finger') AND ext_id = OLD.ext_id) THEN RETURN NULL; END IF;
      IF NOT EXISTS (SELECT 1 FROM ${s}.person_documents WHERE ext_id = OLD.ext_id) THEN RETURN NULL; END IF;
      SELECT version, station_id, deleted_at INTO t FROM ${s}.tombstones WHERE ext_id = OLD.ext_id ORDER BY version COLLATE "C" DESC LIMIT 1;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'person % deleted without a tombstone: its document record cannot follow', OLD.ext_id;
      END IF;
      UPDATE ${s}.sync_clock SET seq = seq + 1, hlc = GREATEST(hlc COLLATE "C", t.version COLLATE "C") RETURNING seq INTO n;
      DELETE FROM ${s}.person_documents WHERE ext_id = OLD.ext_id;
      INSERT INTO ${s}.document_tombstones (ext_id, version, station_id, deleted_at, change_seq) VALUES (OLD.ext_id, t.version, t.station_id, t.deleted_at, n)
        ON CONFLICT (ext_id) DO UPDATE SET version = excluded.version, station_id = excluded.station_id, deleted_at = excluded.deleted_at, change_seq = excluded.change_seq;
      RETURN NULL;
    END $$`);
  await c.query(`CREATE CONSTRAINT TRIGGER documents_follow_person_delete AFTER DELETE ON ${s}.persons
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${s}.documents_follow_person_delete()`);
};
