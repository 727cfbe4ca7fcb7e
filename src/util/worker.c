/* The background thread of gsfw_worker (worker.h). */
#include "util/worker.h"

#include <pthread.h>
#include <stdlib.h>

struct gsfw_worker {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* a task or the stop request is posted */
    pthread_cond_t done;  /* the task has returned */
    void (*task)(void *);
    void *arg;
    int pending, stop;
};

static void *worker_main(void *p)
{
    gsfw_worker *w = p;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->pending && !w->stop) pthread_cond_wait(&w->wake, &w->lock);
        if (!w->pending) break; /* stop, nothing left to do */
        void (*task)(void *) = w->task;
        void *arg = w->arg;
        pthread_mutex_unlock(&w->lock);
        task(arg);
        pthread_mutex_lock(&w->lock);
        w->pending = 0;
        pthread_cond_signal(&w->done);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

gsfw_worker *gsfw_worker_create(void)
{
    gsfw_worker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    if (pthread_mutex_init(&w->lock, NULL)) goto fail_mutex;
    if (pthread_cond_init(&w->wake, NULL)) goto fail_wake;
    if (pthread_cond_init(&w->done, NULL)) goto fail_done;
    if (pthread_create(&w->thread, NULL, worker_main, w)) goto fail_thread;
    return w;
fail_thread:
    pthread_cond_destroy(&w->done);
fail_done:
    pthread_cond_destroy(&w->wake);
fail_wake:
    pthread_mutex_destroy(&w->lock);
fail_mutex:
    free(w);
    return NULL;
}

void gsfw_worker_free(gsfw_worker *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

/* task(arg) begins on the worker */
static void start(gsfw_worker *w, void (*task)(void *), void *arg)
{
    pthread_mutex_lock(&w->lock);
    w->task = task;
    w->arg = arg;
    w->pending = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
}

/* the task started last has returned */
static void wait_done(gsfw_worker *w)
{
    pthread_mutex_lock(&w->lock);
    while (w->pending) pthread_cond_wait(&w->done, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

void gsfw_worker_pair(gsfw_worker *w, void (*a)(void *), void *arg_a, void (*b)(void *),
                      void *arg_b)
{
    if (!w) {
        a(arg_a);
        b(arg_b);
        return;
    }
    start(w, b, arg_b);
    a(arg_a);
    wait_done(w);
}
