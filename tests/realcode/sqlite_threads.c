// Driver for the SQLite amalgamation of the npm `better-sqlite3` package
// (built from its own sources and defines by run_realcode.py). Several
// threads share ONE database file in WAL mode, each through its own
// connection (the package builds with SQLITE_THREADSAFE=2 and without shared
// cache): concurrent writers, then concurrent readers, then each thread
// updating rows the others inserted. Everything printed is independent of the
// interleaving, so the output must match the native build exactly.
//   sqlite_threads DB_PATH [ROWS_PER_THREAD]
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kThreads = 4, kBatch = 250 };

static const char *db_path;
static int rows_per_thread;
static pthread_barrier_t barrier;

struct worker {
  int index;
  int failed;
  char result[512];  // the thread's query results, printed by main in order
};

static void die(sqlite3 *db, const char *what) {
  fprintf(stderr, "sqlite_threads: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
  exit(3);
}

static void exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "sqlite_threads: %s: %s\n", sql, err ? err : "?");
    exit(3);
  }
}

static sqlite3 *open_db(void) {
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    die(db, "open");
  sqlite3_busy_timeout(db, 600000);  // writers wait for each other, never fail
  return db;
}

// FNV-1a over a query's rows, as text: the same rows in the same order give
// the same checksum whoever wrote them.
static uint64_t query_checksum(sqlite3 *db, const char *sql, int bind, int *rows) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die(db, sql);
  if (bind >= 0) sqlite3_bind_int(st, 1, bind);
  uint64_t h = 1469598103934665603ull;
  int n = 0, rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    n++;
    for (int c = 0; c < sqlite3_column_count(st); c++) {
      const unsigned char *text = sqlite3_column_text(st, c);
      for (const unsigned char *p = text ? text : (const unsigned char *)"NULL"; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
      h = (h ^ '|') * 1099511628211ull;
    }
  }
  if (rc != SQLITE_DONE) die(db, sql);
  sqlite3_finalize(st);
  if (rows) *rows = n;
  return h;
}

static void *work(void *arg) {
  struct worker *w = arg;
  sqlite3 *db = open_db();
  // 1. Concurrent writers: batches of inserts, each its own transaction.
  sqlite3_stmt *ins;
  if (sqlite3_prepare_v2(db,
                         "INSERT INTO item(id, owner, k, v) VALUES(?1, ?2, ?3,"
                         " printf('%08x-%d', (?3 * 2654435761) % 4294967296, ?2))",
                         -1, &ins, NULL) != SQLITE_OK)
    die(db, "prepare insert");
  for (int b = 0; b < rows_per_thread; b += kBatch) {
    exec(db, "BEGIN IMMEDIATE");
    for (int i = b; i < b + kBatch && i < rows_per_thread; i++) {
      int id = i * kThreads + w->index + 1;  // the threads' rows interleave in the b-tree
      sqlite3_bind_int(ins, 1, id);
      sqlite3_bind_int(ins, 2, w->index);
      sqlite3_bind_int(ins, 3, (id * 7919) % 100003);
      if (sqlite3_step(ins) != SQLITE_DONE) die(db, "insert");
      sqlite3_reset(ins);
    }
    exec(db, "COMMIT");
  }
  sqlite3_finalize(ins);
  pthread_barrier_wait(&barrier);
  // 2. Concurrent readers over everything all threads wrote.
  int rows_all, rows_own;
  uint64_t all = query_checksum(db, "SELECT id, owner, k, v FROM item ORDER BY k, id", -1, &rows_all);
  uint64_t own = query_checksum(db, "SELECT count(*), sum(k), max(v) FROM item WHERE owner = ?1",
                                w->index, &rows_own);
  uint64_t groups = query_checksum(
      db, "SELECT owner, count(*), sum(k % 97), min(v) FROM item GROUP BY owner ORDER BY owner",
      -1, NULL);
  pthread_barrier_wait(&barrier);
  // 3. Each thread updates the rows of the next thread (disjoint sets).
  char sql[160];
  snprintf(sql, sizeof sql, "UPDATE item SET k = k + owner, v = upper(v) WHERE owner = %d",
           (w->index + 1) % kThreads);
  exec(db, "BEGIN IMMEDIATE");
  exec(db, sql);
  exec(db, "COMMIT");
  snprintf(w->result, sizeof w->result,
           "thread %d: rows %d all %016llx own %016llx groups %016llx updated %d", w->index,
           rows_all, (unsigned long long)all, (unsigned long long)own,
           (unsigned long long)groups, sqlite3_changes(db));
  if (sqlite3_close(db) != SQLITE_OK) w->failed = 1;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sqlite_threads DB_PATH [ROWS_PER_THREAD]\n");
    return 2;
  }
  db_path = argv[1];
  rows_per_thread = argc > 2 ? atoi(argv[2]) : 20000;
  char extra[4096];
  for (const char *suffix = ""; ; suffix = suffix[0] ? NULL : "-wal") {  // a fresh database
    if (!suffix) break;
    snprintf(extra, sizeof extra, "%s%s", db_path, suffix);
    unlink(extra);
  }
  snprintf(extra, sizeof extra, "%s-shm", db_path);
  unlink(extra);
  printf("sqlite %s, threadsafe %d\n", sqlite3_libversion(), sqlite3_threadsafe());
  sqlite3 *db = open_db();
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "CREATE TABLE item(id INTEGER PRIMARY KEY, owner INT NOT NULL, k INT NOT NULL,"
           " v TEXT NOT NULL)");
  exec(db, "CREATE INDEX item_k ON item(k)");
  pthread_barrier_init(&barrier, NULL, kThreads);
  pthread_t threads[kThreads];
  struct worker workers[kThreads];
  for (int i = 0; i < kThreads; i++) {
    workers[i] = (struct worker){.index = i};
    pthread_create(&threads[i], NULL, work, &workers[i]);
  }
  int failed = 0;
  for (int i = 0; i < kThreads; i++) {
    pthread_join(threads[i], NULL);
    printf("%s\n", workers[i].result);
    failed |= workers[i].failed;
  }
  int rows;
  uint64_t final = query_checksum(db, "SELECT * FROM item ORDER BY id", -1, &rows);
  printf("final: rows %d checksum %016llx\n", rows, (unsigned long long)final);
  printf("integrity: %016llx\n",
         (unsigned long long)query_checksum(db, "PRAGMA integrity_check", -1, NULL));
  if (sqlite3_close(db) != SQLITE_OK) failed = 1;
  return failed;
}
