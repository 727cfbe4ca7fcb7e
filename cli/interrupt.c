/* SIGINT / SIGTERM as a request to stop at the next safe point (interrupt.h). */
#include "interrupt.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static volatile sig_atomic_t received;

static void on_signal(int sig)
{
    if (!received) received = sig;
}

int cli_interrupt_install(void)
{
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        struct sigaction old;
        if (sigaction(sigs[k], NULL, &old) != 0) return -1;
        if (old.sa_handler == SIG_IGN) continue; /* nohup, or a shell's background job */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART; /* reads and writes resume; the flag is polled */
        if (sigaction(sigs[k], &sa, NULL) != 0) return -1;
    }
    return 0;
}

int cli_interrupted(void)
{
    return received;
}

void cli_interrupt_block(int block)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int cli_interrupted_exit(const char *cmd, const char *what)
{
    int sig = received ? received : SIGINT;
    fprintf(stderr, "gsfw %s: interrupted (%s); %s\n", cmd, sig == SIGTERM ? "SIGTERM" : "SIGINT",
            what);
    return 128 + sig;
}

int cli_interrupt_callback(const gsfw_iterate *it, const double *x, void *user)
{
    (void)it;
    (void)x;
    (void)user;
    return received != 0;
}
