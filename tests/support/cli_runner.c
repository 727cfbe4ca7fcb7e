#include "cli_runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

cli_result cli_run(const char *const *args) { return cli_run_stdout_to(NULL, args); }

cli_result cli_run_stdout_to(const char *stdout_path, const char *const *args)
{
    cli_result r = {-1, NULL, NULL};
    char out_path[] = "/tmp/gsfw-cli-out-XXXXXX", err_path[] = "/tmp/gsfw-cli-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    int argc = 0;
    while (args[argc]) argc++;
    char **argv = calloc((size_t)argc + 2, sizeof(char *));
    argv[0] = (char *)GSFW_BIN;
    for (int i = 0; i < argc; i++) argv[i + 1] = (char *)args[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        int out = stdout_path ? open(stdout_path, O_WRONLY) : fo;
        if (out < 0) _exit(126);
        dup2(out, 1);
        dup2(fe, 2);
        execv(GSFW_BIN, argv);
        _exit(127);
    }
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    close(fo);
    close(fe);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    unlink(out_path);
    unlink(err_path);
    free(argv);
    return r;
}

void cli_result_free(cli_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

const char *tmpdir_create(void)
{
    static char templ[64];
    strcpy(templ, "/tmp/gsfw-test-XXXXXX");
    return mkdtemp(templ);
}

const char *path_in(const char *dir, const char *name)
{
    static char ring[8][512];
    static int next = 0;
    char *buf = ring[next];
    next = (next + 1) % 8;
    snprintf(buf, sizeof ring[0], "%s/%s", dir, name);
    return buf;
}

void tmpdir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0) tmpdir_remove(path); /* an output directory */
    }
    closedir(d);
    rmdir(dir);
}

int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

int file_holds(const char *path, const char *want)
{
    size_t len = strlen(want);
    char *got = malloc(len + 2);
    FILE *f = got ? fopen(path, "rb") : NULL;
    size_t n = f ? fread(got, 1, len + 1, f) : 0; /* one byte more: a longer file differs */
    if (f) fclose(f);
    int same = f && n == len && memcmp(got, want, len) == 0;
    if (!same) fprintf(stderr, "'%s' does not hold exactly '%s'\n", path, want);
    free(got);
    return same;
}

int dir_count(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}
