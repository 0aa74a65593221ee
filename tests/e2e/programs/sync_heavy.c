// Heavy synchronisation: pairs of threads hand a token back and forth through
// a mutex and condition variables, all threads increment a shared counter
// under one contended mutex, and everyone meets at a barrier, a semaphore
// ping-pong, a rwlock and a spin lock. Expected: a thread_migration issue.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define PAIRS 2
#define ROUNDS 20000
#define LOCKED 100000
#define BARRIERS 200

static pthread_mutex_t pair_lock[PAIRS];
static pthread_cond_t pair_cond[PAIRS];
static int turn[PAIRS];
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static long slots[8 * 16];
static pthread_barrier_t barrier;
static sem_t sems[PAIRS][2];
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static long rw_value, spin_value;

static void *player(void *arg) {
  long id = (long)arg, pair = id / 2, side = id % 2;
  for (int r = 0; r < ROUNDS; ++r) {
    pthread_mutex_lock(&pair_lock[pair]);
    while (turn[pair] != side) pthread_cond_wait(&pair_cond[pair], &pair_lock[pair]);
    turn[pair] = 1 - side;
    pthread_cond_signal(&pair_cond[pair]);
    pthread_mutex_unlock(&pair_lock[pair]);
  }
  for (int i = 0; i < LOCKED; ++i) {
    pthread_mutex_lock(&counter_lock);
    for (int k = 0; k < 16; ++k) slots[id * 16 + k] += k;  // some work while holding it
    ++counter;
    pthread_mutex_unlock(&counter_lock);
  }
  for (int i = 0; i < BARRIERS; ++i) {
    pthread_barrier_wait(&barrier);
    pthread_rwlock_wrlock(&rw);
    ++rw_value;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_rdlock(&rw);
    long v = rw_value;
    pthread_rwlock_unlock(&rw);
    pthread_spin_lock(&spin);
    spin_value += v & 1;
    pthread_spin_unlock(&spin);
  }
  for (int r = 0; r < 1000; ++r) {  // semaphore ping-pong inside the pair
    if (side == 0) {
      sem_post(&sems[pair][1]);
      sem_wait(&sems[pair][0]);
    } else {
      sem_wait(&sems[pair][1]);
      sem_post(&sems[pair][0]);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t t[2 * PAIRS];
  pthread_barrier_init(&barrier, NULL, 2 * PAIRS);
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  for (int p = 0; p < PAIRS; ++p) {
    pthread_mutex_init(&pair_lock[p], NULL);
    pthread_cond_init(&pair_cond[p], NULL);
    sem_init(&sems[p][0], 0, 0);
    sem_init(&sems[p][1], 0, 0);
  }
  for (long i = 0; i < 2 * PAIRS; ++i) pthread_create(&t[i], NULL, player, (void *)i);
  for (int i = 0; i < 2 * PAIRS; ++i) pthread_join(t[i], NULL);
  printf("%ld %ld %ld\n", counter, rw_value, spin_value);
  return counter == (long)2 * PAIRS * LOCKED ? 0 : 1;
}
