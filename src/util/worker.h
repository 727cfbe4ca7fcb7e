/* One background thread that runs one task at a time for its owner: the second of two
 * independent pieces of work (the other half of a transform or product) while the
 * owner's thread does the first. The thread is started once, with the object, so a task
 * costs two mutex hand-overs and allocates nothing. A worker serves one owner thread. */
#ifndef GSFW_UTIL_WORKER_H
#define GSFW_UTIL_WORKER_H

typedef struct gsfw_worker gsfw_worker;

/* NULL when the thread cannot be started. */
gsfw_worker *gsfw_worker_create(void);
void gsfw_worker_free(gsfw_worker *w);

/* Run a(arg_a) and b(arg_b): b on the worker while a runs on the calling thread when w is
 * not NULL, else one after the other. Either way both have returned when this returns. */
void gsfw_worker_pair(gsfw_worker *w, void (*a)(void *), void *arg_a, void (*b)(void *),
                      void *arg_b);

#endif
