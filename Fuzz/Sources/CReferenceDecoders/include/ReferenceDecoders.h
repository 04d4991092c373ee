// The C libraries as references for the differential fuzz targets (png-diff,
// gif-diff). Linked into the fuzz harness only, never into Glimpse itself.
#ifndef GLIMPSE_REFERENCE_DECODERS_H
#define GLIMPSE_REFERENCE_DECODERS_H

#include <stddef.h>
#include <stdint.h>

/// What a reference decode gave.
typedef enum {
    REFERENCE_DECODED = 0,   ///< `*rgba` holds width × height × 4 bytes (free it with free()).
    REFERENCE_REJECTED = 1,  ///< The library failed the input.
    REFERENCE_NO_VERDICT = 2 ///< Outside what the comparison covers (too large, no colour table…).
} ReferenceResult;

/// libpng in a strict setting: a CRC error on any chunk and a benign error about
/// the image data (IDAT) fail the file; expanded to 8-bit RGBA (16-bit samples keep the high byte), Adam7
/// de-interlaced. Images above `max_pixels` get no verdict.
ReferenceResult reference_png_strict(const uint8_t *data, size_t size, size_t max_pixels,
                                     uint8_t **rgba, int *width, int *height);

/// giflib's first frame, composed onto a transparent canvas of the logical
/// screen's size (the transparent index and indices past the colour table leave
/// the canvas as it is; the frame is clipped to the screen). Decoding stops
/// after the first frame, so only the bytes up to it are judged.
ReferenceResult reference_gif_first_frame(const uint8_t *data, size_t size, size_t max_pixels,
                                          uint8_t **rgba, int *width, int *height);

#endif
