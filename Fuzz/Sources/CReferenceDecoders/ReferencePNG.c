#include "ReferenceDecoders.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size, offset;
    /// A warning about the image data itself (libpng reports some damage there,
    /// such as a bad Adler-32, as a benign error).
    int damaged;
} Input;

static void read_input(png_structp png, png_bytep out, png_size_t count) {
    Input *input = png_get_io_ptr(png);
    if (input->size - input->offset < count) png_error(png, "truncated");
    memcpy(out, input->data + input->offset, count);
    input->offset += count;
}

static void fail(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

// libpng's benign errors stay warnings (its default) except where they concern
// the image data (IDAT): about ancillary chunks' contents (an sRGB profile libpng
// knows to be wrong, an eXIf byte order, a misplaced bKGD…) they say nothing of
// the pixels, which Glimpse does not judge either. Surplus image data ("Too much
// image data", "Extra compressed data") is ignored by both, as libpng's default.
static void note_warning(png_structp png, png_const_charp message) {
    Input *input = png_get_io_ptr(png);
    if (!input || !message || strncmp(message, "IDAT", 4) != 0) return;
    if (strstr(message, "Too much image data") || strstr(message, "Extra compressed data")) return;
    input->damaged = 1;
}

ReferenceResult reference_png_strict(const uint8_t *data, size_t size, size_t max_pixels,
                                     uint8_t **rgba, int *width, int *height) {
    Input input = {data, size, 0, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail, note_warning);
    if (!png) return REFERENCE_NO_VERDICT;
    png_infop info = png_create_info_struct(png);
    // volatile: read after longjmp.
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile ReferenceResult result = REFERENCE_REJECTED;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return result;
    }
    png_set_read_fn(png, &input, read_input);
    // Strict: a bad CRC fails any chunk.
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_user_limits(png, 16384, 16384);
    // A chunk length near 2^30 must not become an allocation (Debian's libpng sets no cap).
    png_set_chunk_malloc_max(png, 16 << 20);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((size_t)w * h > max_pixels) {
        result = REFERENCE_NO_VERDICT;
        png_longjmp(png, 1);
    }
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    pixels = malloc((size_t)w * h * 4);
    rows = malloc(sizeof(png_bytep) * h);
    if (!pixels || !rows) {
        result = REFERENCE_NO_VERDICT;
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    if (input.damaged) png_longjmp(png, 1);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *rgba = pixels;
    *width = (int)w;
    *height = (int)h;
    return REFERENCE_DECODED;
}
