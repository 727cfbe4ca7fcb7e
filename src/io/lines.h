/* Bounded line reading for the text inputs (edge lists, prize files). Like getline(3),
 * but a line longer than a limit is an error instead of unbounded memory (an endless
 * input such as /dev/zero must fail, not exhaust memory), and a NUL byte, which would
 * silently cut the line short for string parsing, is reported. */
#ifndef GSFW_IO_LINES_H
#define GSFW_IO_LINES_H

#include <stddef.h>
#include <stdio.h>

/* Longest line accepted (bytes, newline included): far above any sensible edge or prize
 * line, comments included. */
#define GSFW_LINE_MAX ((size_t)1 << 24)

typedef enum {
    GSFW_LINE_OK = 0,     /* a line was read (possibly without a final newline) */
    GSFW_LINE_EOF,        /* no more lines */
    GSFW_LINE_TOO_LONG,   /* longer than the limit */
    GSFW_LINE_NUL,        /* contains a NUL byte (the rest of the line is left unread) */
    GSFW_LINE_BARE_CR,    /* a carriage return not followed by a newline (CR-only line
                           * ends); CRLF is accepted */
    GSFW_LINE_NOMEM,
    GSFW_LINE_READ_ERROR  /* ferror(fp); errno as left by the stream */
} gsfw_line_status;

typedef struct {
    char *buf;   /* the line, NUL-terminated, newline kept */
    size_t len;  /* its length in bytes */
    size_t cap;
} gsfw_line;

/* Read the next line of fp into *line (buffer reused across calls; free line->buf when
 * done). max_len bounds the line's length. */
gsfw_line_status gsfw_line_read(FILE *fp, gsfw_line *line, size_t max_len);
/* What is wrong with a line read with GSFW_LINE_MAX, as the end of a sentence that
 * starts with "line N": for GSFW_LINE_TOO_LONG, GSFW_LINE_NUL and GSFW_LINE_BARE_CR;
 * NULL for the other statuses (which are not about the line's text). */
const char *gsfw_line_problem(gsfw_line_status status);

#endif
