// libjpeg-turbo as the reference for the jpeg-diff fuzz target: the settings of
// ../shared/tools/refdecode.c --lenient, written for an in-process decode.
#include "jpeg_reference.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} ReferenceError;

static void reference_error_exit(j_common_ptr cinfo) {
    longjmp(((ReferenceError *)cinfo->err)->jump, 1);
}

// Warnings (corrupt or truncated data) are ignored, as djpeg does; nothing is printed.
static void reference_quiet(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

int jpeg_reference_decode(const uint8_t *data, size_t size, size_t max_pixels,
                          uint8_t **rgba, int *width, int *height) {
    struct jpeg_decompress_struct cinfo;
    ReferenceError error;
    // volatile: read after longjmp.
    uint8_t *volatile output = NULL;
    uint8_t *volatile cmyk = NULL;
    JSAMPROW *volatile rows = NULL;
    *rgba = NULL;
    cinfo.err = jpeg_std_error(&error.pub);
    error.pub.error_exit = reference_error_exit;
    error.pub.emit_message = reference_quiet;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(output);
        free(cmyk);
        free(rows);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if ((size_t)cinfo.image_width * cinfo.image_height > max_pixels) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    int is_cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    size_t w = cinfo.output_width, h = cinfo.output_height;
    output = malloc(w * h * 4 + 1);
    cmyk = is_cmyk ? malloc(w * h * 4 + 1) : NULL;
    rows = malloc(sizeof(JSAMPROW) * (h + 1));
    if (!output || (is_cmyk && !cmyk) || !rows) longjmp(error.jump, 1);
    uint8_t *target = is_cmyk ? cmyk : output;
    for (size_t y = 0; y < h; y++) rows[y] = target + y * w * 4;
    while (cinfo.output_scanline < cinfo.output_height)
        jpeg_read_scanlines(&cinfo, rows + cinfo.output_scanline, cinfo.output_height - cinfo.output_scanline);
    if (is_cmyk)
        for (size_t i = 0; i < w * h; i++) {
            int k = cmyk[i * 4 + 3];
            for (int c = 0; c < 3; c++) {
                int t = cmyk[i * 4 + c] * k + 128;
                output[i * 4 + c] = (uint8_t)((t + (t >> 8)) >> 8);
            }
            output[i * 4 + 3] = 255;
        }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(cmyk);
    free(rows);
    *rgba = output;
    *width = (int)w;
    *height = (int)h;
    return 0;
}

void jpeg_reference_free(uint8_t *rgba) { free(rgba); }
