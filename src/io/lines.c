/* Bounded line reading (see lines.h). Reads with getc_unlocked: a stream is owned by one
 * reader here, and per-character reading is what lets the limit and the NUL check act
 * before the bytes are stored. */
#if !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* getc_unlocked */
#endif
#include "io/lines.h"

#include <stdlib.h>

gsfw_line_status gsfw_line_read(FILE *fp, gsfw_line *line, size_t max_len)
{
    line->len = 0;
    int c = EOF;
    while ((c = getc_unlocked(fp)) != EOF) {
        if (c == '\0') return GSFW_LINE_NUL; /* the caller gives up: no need to read on */
        if (line->len >= max_len) return GSFW_LINE_TOO_LONG;
        if (line->len + 2 > line->cap) {
            size_t cap = line->cap ? 2 * line->cap : 256;
            char *grown = realloc(line->buf, cap);
            if (!grown) return GSFW_LINE_NOMEM;
            line->buf = grown;
            line->cap = cap;
        }
        if (c == '\r') {
            /* CRLF ends are fine; a lone CR (old Mac line ends) would hide every line
             * after a comment, so it is refused rather than read as one long line */
            int next = getc_unlocked(fp);
            if (next != '\n' && next != EOF) return GSFW_LINE_BARE_CR;
            if (next == '\n') ungetc(next, fp);
        }
        line->buf[line->len++] = (char)c;
        if (c == '\n') break;
    }
    if (c == EOF && ferror(fp)) return GSFW_LINE_READ_ERROR;
    if (line->len == 0) return GSFW_LINE_EOF;
    line->buf[line->len] = '\0';
    return GSFW_LINE_OK;
}

_Static_assert(GSFW_LINE_MAX == 16777216, "gsfw_line_problem names the limit");

const char *gsfw_line_problem(gsfw_line_status status)
{
    switch (status) {
    case GSFW_LINE_TOO_LONG: return "is longer than 16777216 bytes (16 MB)";
    case GSFW_LINE_NUL: return "contains a NUL byte (is this a binary file?)";
    case GSFW_LINE_BARE_CR:
        return "has a carriage return without a newline (old Mac line ends?): use Unix or "
               "Windows line ends";
    default: return NULL;
    }
}
