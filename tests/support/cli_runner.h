/* Run the gsfw executable from tests and capture its exit status and output. */
#ifndef GSFW_TEST_CLI_RUNNER_H
#define GSFW_TEST_CLI_RUNNER_H

typedef struct {
    int status;      /* exit status (or 128 + signal) */
    char *out;       /* captured stdout (NUL-terminated, malloc'ed) */
    char *err;       /* captured stderr */
} cli_result;

/* Run GSFW_BIN with the NULL-terminated argument list (argv[0] excluded). */
cli_result cli_run(const char *const *args);
/* The same with stdout opened on stdout_path (r.out is then empty). */
cli_result cli_run_stdout_to(const char *stdout_path, const char *const *args);
void cli_result_free(cli_result *r);

/* Temporary directory for a test; path_in() joins a file name to it (static buffer
 * ring of 8 entries). */
const char *tmpdir_create(void);  /* tmpdir_remove removes it with everything inside */
const char *path_in(const char *dir, const char *name);
void tmpdir_remove(const char *dir);
int file_exists(const char *path);
/* Write a text file (returns 0 on success). */
int write_text(const char *path, const char *text);
/* 1 when the file's whole contents are exactly want (else 0, with a note on stderr). */
int file_holds(const char *path, const char *want);


/* Number of entries in a directory (without . and ..). */
int dir_count(const char *dir);
#endif
