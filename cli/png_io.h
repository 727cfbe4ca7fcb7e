/* Grayscale PNG images for the command-line tools (gsfw recover, gsfw-mpi, experiments).
 * Not part of the library: libgsfw does not link libpng. Named png_io.h, not png.h, so
 * that it never shadows libpng's <png.h> where cli/ is on the include path. */
#ifndef GSFW_CLI_PNG_IO_H
#define GSFW_CLI_PNG_IO_H

#include "gsfw.h"

/* 8-bit or 16-bit grayscale / RGB(A) PNG to doubles in [0, 1] (RGB converted to luma).
 * *img is row-major height x width, freed with gsfw_free. */
gsfw_error gsfw_png_read_gray(const char *path, double **img, int *height, int *width,
                              gsfw_err *err);
/* The same, refusing (GSFW_ERR_FORMAT, before decompressing anything) an image of more
 * than max_pixels pixels as declared in its header; max_pixels <= 0: no limit beyond
 * INT_MAX pixels, as gsfw_png_read_gray. A PNG of a few kilobytes can declare an image
 * of many gigabytes. */
gsfw_error gsfw_png_read_gray_limited(const char *path, long long max_pixels, double **img,
                                      int *height, int *width, gsfw_err *err);
/* Write an 8-bit grayscale PNG, mapping [lo, hi] linearly to [0, 255] (clamped).
 * Temporary file + rename (src/io/atomic.h). */
gsfw_error gsfw_png_write_gray(const char *path, const double *img, int height, int width,
                               double lo, double hi, gsfw_err *err);

#endif
