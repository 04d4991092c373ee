/*
 * Generates the lossy WebP fixtures of Tests/GlimpseCodecTests/WebP/Lossy with
 * libwebp's encoder (the same library cwebp uses), one file per VP8 feature
 * the decoder must handle, plus expected.tsv: each file's size and the FNV-1a
 * 64-bit hash of libwebp's RGBA decode (WebPDecodeRGBA, as dwebp -pam).
 *
 *   cc -O2 -o /tmp/generate generate.c -lwebp && (cd Fixtures/webp-lossy && /tmp/generate)
 *
 * The picture is synthetic and deterministic: gradients, a ring, stripes and
 * xorshift noise, so that every prediction mode and the loop filter have work.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>

static uint32_t state = 2463534242u;
static uint32_t next(void) { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }

static uint8_t* picture(int w, int h) {
    uint8_t* rgb = malloc((size_t)w * h * 3);
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            int dx = x - w / 2, dy = y - h / 2, ring = (dx * dx + dy * dy) / 23 % 7 == 0;
            int stripe = (x / 5 + y / 9) & 1;
            uint8_t* p = rgb + 3 * ((size_t)y * w + x);
            int n = (int)(next() % 41) - 20;
            int r = x * 255 / (w > 1 ? w - 1 : 1) + n, g = y * 255 / (h > 1 ? h - 1 : 1) - n;
            int b = ring ? 230 : stripe ? 40 : 140;
            p[0] = r < 0 ? 0 : r > 255 ? 255 : r;
            p[1] = g < 0 ? 0 : g > 255 ? 255 : g;
            p[2] = b;
        }
    }
    return rgb;
}

static uint64_t fnv1a(const uint8_t* data, size_t size) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; ++i) { hash ^= data[i]; hash *= 0x100000001b3ull; }
    return hash;
}

struct fixture {
    const char* name;
    int width, height;
    float quality;
    int method, segments, partitions, filter_strength, sharpness, filter_type;
};

int main(void) {
    static const struct fixture fixtures[] = {
        /* name                         w    h    q   m seg part  f sharp type (0 simple, 1 normal) */
        {"size-1x1.webp",               1,   1,  75, 4,  4,   0, 60,   0, 1},
        {"size-17x13.webp",            17,  13,  75, 4,  4,   0, 60,   0, 1},
        {"size-13x1.webp",             13,   1,  75, 4,  4,   0, 60,   0, 1},
        {"size-1x31.webp",              1,  31,  75, 4,  4,   0, 60,   0, 1},
        {"segments-1.webp",            97,  61,  60, 4,  1,   0, 60,   0, 1},
        {"segments-4.webp",            97,  61,  60, 4,  4,   0, 60,   0, 1},
        {"partitions-2.webp",          97,  61,  80, 4,  4,   1, 60,   0, 1},
        {"partitions-8.webp",          97,  61,  80, 4,  4,   3, 60,   0, 1},
        {"filter-off.webp",            97,  61,  50, 4,  4,   0,  0,   0, 1},
        {"filter-simple.webp",         97,  61,  40, 4,  4,   0, 80,   0, 0},
        {"filter-simple-sharp-5.webp", 97,  61,  40, 4,  4,   0, 80,   5, 0},
        {"filter-normal-sharp-3.webp", 97,  61,  30, 4,  4,   0, 90,   3, 1},
        {"filter-normal-sharp-7.webp", 97,  61,  30, 4,  4,   0,100,   7, 1},
        {"quality-0.webp",             64,  48,   0, 4,  4,   0, 60,   0, 1},
        {"quality-100.webp",           64,  48, 100, 6,  4,   0, 60,   0, 1},
        {"method-0.webp",              97,  61,  75, 0,  4,   0, 60,   0, 1},
    };
    FILE* tsv = fopen("expected.tsv", "w");
    fprintf(tsv, "file\twidth\theight\tfnv1a64_rgba\n");
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); ++i) {
        const struct fixture* f = &fixtures[i];
        WebPConfig config;
        WebPPicture pic;
        WebPMemoryWriter writer;
        if (!WebPConfigInit(&config) || !WebPPictureInit(&pic)) return 1;
        config.quality = f->quality;
        config.method = f->method;
        config.segments = f->segments;
        config.partitions = f->partitions;
        config.filter_strength = f->filter_strength;
        config.filter_sharpness = f->sharpness;
        config.filter_type = f->filter_type;
        config.autofilter = 0;
        /* libwebp's encoder writes one token partition unless it works in low-memory mode. */
        config.low_memory = f->partitions > 0;
        pic.width = f->width;
        pic.height = f->height;
        uint8_t* rgb = picture(f->width, f->height);
        if (!WebPPictureImportRGB(&pic, rgb, 3 * f->width)) return 1;
        WebPMemoryWriterInit(&writer);
        pic.writer = WebPMemoryWrite;
        pic.custom_ptr = &writer;
        if (!WebPEncode(&config, &pic)) { fprintf(stderr, "%s: encode failed\n", f->name); return 1; }
        FILE* out = fopen(f->name, "wb");
        fwrite(writer.mem, 1, writer.size, out);
        fclose(out);
        int w, h;
        uint8_t* rgba = WebPDecodeRGBA(writer.mem, writer.size, &w, &h);
        fprintf(tsv, "%s\t%d\t%d\t%016llx\n", f->name, w, h, (unsigned long long)fnv1a(rgba, (size_t)w * h * 4));
        WebPFree(rgba);
        WebPMemoryWriterClear(&writer);
        WebPPictureFree(&pic);
        free(rgb);
    }
    fclose(tsv);
    return 0;
}
