#include "ReferenceDecoders.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size, offset;
} Input;

static int read_input(GifFileType *gif, GifByteType *out, int count) {
    Input *input = gif->UserData;
    size_t n = input->size - input->offset < (size_t)count ? input->size - input->offset : (size_t)count;
    memcpy(out, input->data + input->offset, n);
    input->offset += n;
    return (int)n;
}

static ReferenceResult close_with(GifFileType *gif, ReferenceResult result, uint8_t *canvas) {
    int error;
    DGifCloseFile(gif, &error);
    free(canvas);
    return result;
}

ReferenceResult reference_gif_first_frame(const uint8_t *data, size_t size, size_t max_pixels,
                                          uint8_t **rgba, int *width, int *height) {
    // giflib checks only "GIF" of the six signature bytes; browsers (and Glimpse)
    // want GIF87a or GIF89a. Not a question the comparison asks.
    if (size < 6 || memcmp(data, "GIF", 3) != 0) return REFERENCE_REJECTED;
    if (memcmp(data + 3, "87a", 3) != 0 && memcmp(data + 3, "89a", 3) != 0) return REFERENCE_NO_VERDICT;
    Input input = {data, size, 0};
    int error;
    GifFileType *gif = DGifOpen(&input, read_input, &error);
    if (!gif) return REFERENCE_REJECTED;
    int W = gif->SWidth, H = gif->SHeight;
    // A screen of width or height 0 holds no pixel to compare (Glimpse rejects it).
    if (W <= 0 || H <= 0 || (size_t)W * H > max_pixels) return close_with(gif, REFERENCE_NO_VERDICT, NULL);
    uint8_t *canvas = calloc((size_t)W * H, 4);
    if (!canvas) return close_with(gif, REFERENCE_NO_VERDICT, NULL);
    GraphicsControlBlock control = {0, false, 0, NO_TRANSPARENT_COLOR};
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) return close_with(gif, REFERENCE_REJECTED, canvas);
        if (type == TERMINATE_RECORD_TYPE) break;  // no frame: the blank canvas
        if (type == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return close_with(gif, REFERENCE_REJECTED, canvas);
            if (code == GRAPHICS_EXT_FUNC_CODE && block) {
                // giflib drops a graphic control block not exactly 4 bytes long; browsers
                // (and Glimpse) read the fields of a longer one. No agreed reference.
                if (block[0] != 4) return close_with(gif, REFERENCE_NO_VERDICT, canvas);
                control = (GraphicsControlBlock){0, false, 0, NO_TRANSPARENT_COLOR};
                if (DGifExtensionToGCB(block[0], block + 1, &control) == GIF_ERROR)
                    return close_with(gif, REFERENCE_REJECTED, canvas);
            }
            while (block) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return close_with(gif, REFERENCE_REJECTED, canvas);
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) return close_with(gif, REFERENCE_REJECTED, canvas);
        if (DGifGetImageDesc(gif) == GIF_ERROR) return close_with(gif, REFERENCE_REJECTED, canvas);
        GifImageDesc *desc = &gif->Image;
        ColorMapObject *map = desc->ColorMap ? desc->ColorMap : gif->SColorMap;
        // No colour table at all: there is no agreed reference (see refdecode).
        if (!map) return close_with(gif, REFERENCE_NO_VERDICT, canvas);
        int fw = desc->Width, fh = desc->Height;
        if ((size_t)fw * fh > max_pixels) return close_with(gif, REFERENCE_NO_VERDICT, canvas);
        uint8_t *indices = malloc((size_t)fw * fh + 1);
        if (!indices) return close_with(gif, REFERENCE_NO_VERDICT, canvas);
        static const int start[] = {0, 4, 2, 1}, step[] = {8, 8, 4, 2};
        int ok = 1;
        if ((size_t)fw * fh == 0) {
            // giflib reads a length of 0 as one row of the frame's width, so a frame of
            // height 0 and width > 0 fails there ("more pixels than width × height");
            // browsers and Glimpse draw nothing. No agreed reference.
            if (fw > 0) {
                free(indices);
                return close_with(gif, REFERENCE_NO_VERDICT, canvas);
            }
            // As DGifSlurp: one call, which reads the frame's sub-blocks to their end.
            ok = DGifGetLine(gif, indices, 0) != GIF_ERROR;
        } else if (desc->Interlace) {
            for (int pass = 0; pass < 4 && ok; pass++)
                for (int y = start[pass]; y < fh && ok; y += step[pass])
                    ok = DGifGetLine(gif, indices + (size_t)y * fw, fw) != GIF_ERROR;
        } else {
            for (int y = 0; y < fh && ok; y++) ok = DGifGetLine(gif, indices + (size_t)y * fw, fw) != GIF_ERROR;
        }
        if (!ok) {
            free(indices);
            return close_with(gif, REFERENCE_REJECTED, canvas);
        }
        for (int y = 0; y < fh; y++)
            for (int x = 0; x < fw; x++) {
                long cx = (long)desc->Left + x, cy = (long)desc->Top + y;
                if (cx >= W || cy >= H) continue;
                int index = indices[(size_t)y * fw + x];
                if (index == control.TransparentColor || index >= map->ColorCount) continue;
                uint8_t *p = canvas + ((size_t)cy * W + cx) * 4;
                p[0] = map->Colors[index].Red;
                p[1] = map->Colors[index].Green;
                p[2] = map->Colors[index].Blue;
                p[3] = 255;
            }
        free(indices);
        break;
    }
    DGifCloseFile(gif, &error);
    *rgba = canvas;
    *width = W;
    *height = H;
    return REFERENCE_DECODED;
}
