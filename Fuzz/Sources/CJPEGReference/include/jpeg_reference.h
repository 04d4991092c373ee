#ifndef GLIMPSE_JPEG_REFERENCE_H
#define GLIMPSE_JPEG_REFERENCE_H
#include <stddef.h>
#include <stdint.h>

/// Decodes a JPEG with libjpeg-turbo the way ../shared/tools/refdecode does with
/// --lenient (djpeg's behaviour: warnings are ignored): default settings
/// (accurate integer IDCT, fancy upsampling), RGBA output, CMYK/YCCK converted
/// as R = C*K/255 rounded. Returns 0 and a malloc'ed RGBA buffer (free it with
/// jpeg_reference_free), or -1 when libjpeg-turbo fails. Rejects images above
/// max_pixels before decoding them.
int jpeg_reference_decode(const uint8_t *data, size_t size, size_t max_pixels,
                          uint8_t **rgba, int *width, int *height);
void jpeg_reference_free(uint8_t *rgba);

#endif
