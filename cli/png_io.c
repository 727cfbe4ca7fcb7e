/* Grayscale images from and to PNG files (libpng; see png_io.h).
 *
 * Reading accepts every PNG colour type and bit depth: libpng's transforms expand
 * palettes and low bit depths, convert RGB to luma and drop alpha, leaving one 8- or
 * 16-bit gray sample per pixel, which is scaled to [0, 1]. No gamma correction is
 * applied: the values are the encoded samples, as image-processing code expects.
 *
 * libpng reports errors by longjmp-ing out of its calls. Every local that is modified
 * after setjmp and used after the jump is volatile (C11 7.13.2.1), and the error
 * handler copies libpng's message into a context so the caller gets a message naming
 * the file instead of libpng's default print to stderr. */
#include "png_io.h"

#include "core/internal.h"
#include "io/atomic.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

/* Per-call context handed to the libpng error callback (no global state). */
typedef struct {
    char message[200];
} png_ctx;

/* libpng error callback: remember the message and jump back to our setjmp. */
static void on_png_error(png_structp png, png_const_charp msg)
{
    png_ctx *ctx = png_get_error_ptr(png);
    if (ctx) snprintf(ctx->message, sizeof ctx->message, "%s", msg ? msg : "unknown error");
    png_longjmp(png, 1);
}

/* Warnings (e.g. "iCCP: known incorrect sRGB profile") are harmless for our use, and
 * these functions leave all printing to their caller: ignore them. */
static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* ------------------------------------------------------------------ reader */

/* Set up transforms so that every row holds one gray sample of 8 or 16 bits. */
static void request_gray(png_structp png, png_infop info)
{
    int color = png_get_color_type(png, info);
    int depth = png_get_bit_depth(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    /* Transparency is not an intensity: drop alpha channels (including the one a
     * palette with a tRNS chunk expands to). */
    png_set_strip_alpha(png);
    if (color == PNG_COLOR_TYPE_RGB || color == PNG_COLOR_TYPE_RGB_ALPHA ||
        color == PNG_COLOR_TYPE_PALETTE)
        png_set_rgb_to_gray_fixed(png, 1 /* silently accept colour pixels */, -1, -1);
    png_set_interlace_handling(png); /* png_read_image then runs all Adam7 passes */
    png_read_update_info(png, info);
}

gsfw_error gsfw_png_read_gray(const char *path, double **img, int *height, int *width,
                              gsfw_err *err)
{
    return gsfw_png_read_gray_limited(path, 0, img, height, width, err);
}

gsfw_error gsfw_png_read_gray_limited(const char *path, long long max_pixels, double **img,
                                      int *height, int *width, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!path || !img || !height || !width)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "png read: %s is NULL",
                         !path ? "path" : !img ? "img" : !height ? "height" : "width");
    *img = NULL;

    FILE *fp = fopen(path, "rb");
    if (!fp) return gsfw_fail(err, GSFW_ERR_IO, "cannot open '%s': %s", path, strerror(errno));

    unsigned char sig[8];
    size_t got = fread(sig, 1, sizeof sig, fp);
    if (got != sizeof sig || png_sig_cmp(sig, 0, sizeof sig) != 0) {
        int failed = ferror(fp);
        int e = errno;
        fclose(fp);
        if (failed)
            return gsfw_fail(err, GSFW_ERR_IO, "error reading '%s': %s", path, strerror(e));
        return gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is not a PNG file", path);
    }

    png_ctx ctx = {{0}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error,
                                             on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        fclose(fp);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s'", path);
    }

    /* Modified after setjmp and needed after a longjmp: volatile. */
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    double *volatile out = NULL;
    volatile gsfw_error rc = GSFW_OK;

    if (setjmp(png_jmpbuf(png))) {
        if (rc == GSFW_OK)
            rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is truncated or corrupt (libpng: %s)",
                           path, ctx.message);
        goto done;
    }

    png_init_io(png, fp);
    png_set_sig_bytes(png, (int)sizeof sig);
    png_read_info(png, info);
    request_gray(png, info);

    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    int depth = png_get_bit_depth(png, info);
    if (png_get_channels(png, info) != 1 || (depth != 8 && depth != 16)) {
        rc = gsfw_fail(err, GSFW_ERR_INTERNAL, "'%s': gray conversion gave %d channels of %d "
                       "bits", path, png_get_channels(png, info), depth);
        goto done;
    }
    /* Pixels are later indexed with int (vector dimension d = height * width). */
    if (w == 0 || h == 0 || w > (png_uint_32)INT_MAX || h > (png_uint_32)INT_MAX ||
        (unsigned long long)w * h > (unsigned long long)INT_MAX) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is %lu x %lu pixels, too large", path,
                       (unsigned long)h, (unsigned long)w);
        goto done;
    }
    /* checked from the header, before anything is decompressed: a small file can
     * declare an image of many gigabytes */
    if (max_pixels > 0 && (long long)w * (long long)h > max_pixels) {
        rc = gsfw_fail(err, GSFW_ERR_FORMAT, "'%s' is %lu x %lu = %llu pixels, more than the "
                       "limit of %lld", path, (unsigned long)h, (unsigned long)w,
                       (unsigned long long)w * h, max_pixels);
        goto done;
    }
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes < (size_t)w * (size_t)(depth / 8)) {
        rc = gsfw_fail(err, GSFW_ERR_INTERNAL, "'%s': unexpected row size", path);
        goto done;
    }
    pixels = gsfw_malloc_array(rowbytes, h);
    rows = gsfw_malloc_array(h, sizeof(png_bytep));
    out = gsfw_malloc_array((size_t)w * h, sizeof(double));
    if (!pixels || !rows || !out) {
        rc = gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory reading '%s' (%lu x %lu pixels)",
                       path, (unsigned long)h, (unsigned long)w);
        goto done;
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    /* 16-bit samples are big-endian in PNG (libpng leaves them so without png_set_swap). */
    for (size_t y = 0; y < h; y++) {
        const unsigned char *r = rows[y];
        double *o = out + y * w;
        if (depth == 8)
            for (size_t x = 0; x < w; x++) o[x] = r[x] / 255.0;
        else
            for (size_t x = 0; x < w; x++) o[x] = (double)(r[2 * x] << 8 | r[2 * x + 1]) / 65535.0;
    }
    *height = (int)h;
    *width = (int)w;

done:
    png_destroy_read_struct(&png, &info, NULL);
    fclose(fp);
    free(pixels);
    free(rows);
    if (rc != GSFW_OK) {
        free(out);
        return rc;
    }
    *img = out;
    return GSFW_OK;
}

/* ------------------------------------------------------------------ writer */

/* Map every pixel to its 8-bit sample: (x - lo) / (hi - lo) * 255, clamped, rounded. */
static void quantise_row(const double *x, int width, double lo, double scale,
                         unsigned char *row)
{
    for (int i = 0; i < width; i++) {
        double t = (x[i] - lo) * scale;
        if (t <= 0) t = 0; /* also -Inf pixels */
        if (t >= 255) t = 255; /* also +Inf pixels */
        row[i] = (unsigned char)(t + 0.5);
    }
}

gsfw_error gsfw_png_write_gray(const char *path, const double *img, int height, int width,
                               double lo, double hi, gsfw_err *err)
{
    gsfw_err_clear(err);
    if (!path || !img)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "png write: %s is NULL",
                         !path ? "path" : "img");
    if (height < 1 || width < 1)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "png write '%s': the image must be at "
                         "least 1 x 1 pixels, got %d x %d", path, height, width);
    if (!isfinite(lo) || !isfinite(hi))
        return gsfw_fail(err, GSFW_ERR_NONFINITE, "png write '%s': the value range [%g, %g] "
                         "must be finite", path, lo, hi);
    if (lo == hi)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "png write '%s': empty value range "
                         "(lo = hi = %g)", path, lo);
    /* hi - lo can overflow (lo = -DBL_MAX, hi = DBL_MAX); the scale would then be 0. */
    double scale = 255.0 / (hi - lo);
    if (!isfinite(hi - lo) || !isfinite(scale) || scale == 0)
        return gsfw_fail(err, GSFW_ERR_INVALID_ARG, "png write '%s': the value range [%g, %g] "
                         "is too wide or too narrow", path, lo, hi);
    size_t npix = (size_t)height * (size_t)width;
    for (size_t i = 0; i < npix; i++)
        if (isnan(img[i]))
            return gsfw_fail(err, GSFW_ERR_NONFINITE, "png write '%s': pixel %zu (row %zu, "
                             "column %zu) is NaN", path, i, i / (size_t)width,
                             i % (size_t)width);

    unsigned char *row = malloc((size_t)width);
    if (!row) return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory writing '%s'", path);

    gsfw_atomic_file f;
    gsfw_error rc = gsfw_atomic_open(&f, path, err);
    if (rc) {
        free(row);
        return rc;
    }

    png_ctx ctx = {{0}};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error,
                                              on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        gsfw_atomic_abort(&f);
        free(row);
        return gsfw_fail(err, GSFW_ERR_NOMEM, "out of memory writing '%s'", path);
    }

    /* Nothing declared before setjmp is modified inside the protected region, so no
     * volatile is needed here: f, row and png keep their values across a longjmp. */
    if (setjmp(png_jmpbuf(png))) {
        int e = errno;
        png_destroy_write_struct(&png, &info);
        gsfw_atomic_abort(&f);
        free(row);
        return gsfw_fail(err, GSFW_ERR_IO, "error writing '%s': %s (%s)", path, ctx.message,
                         strerror(e));
    }
    png_init_io(png, f.fp);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_GRAY,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        quantise_row(img + (size_t)y * (size_t)width, width, lo, scale, row);
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return gsfw_atomic_commit(&f, err);
}
