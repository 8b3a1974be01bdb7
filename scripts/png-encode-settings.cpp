// PNG encode settings: thread CPU time (best of 3) and size of libspng encodes of one RGBA PNG at
// zlib levels and row-filter choices, to choose apply's --png-level default (MEASUREMENTS.md, "PNG
// encode settings"). Not part of the build:
//   g++ -O2 -o /tmp/png-encode-settings scripts/png-encode-settings.cpp -lspng -lz
//   /tmp/png-encode-settings picture.png
#include <spng.h>
#include <zlib.h>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>
#include <fstream>
#include <sstream>
int main(int argc, char **argv) {
    std::ifstream in(argv[1], std::ios::binary); std::stringstream ss; ss << in.rdbuf(); std::string file = ss.str();
    spng_ctx *d = spng_ctx_new(0); spng_set_png_buffer(d, file.data(), file.size());
    size_t n; spng_decoded_image_size(d, SPNG_FMT_RGBA8, &n); std::vector<unsigned char> px(n);
    spng_decode_image(d, px.data(), n, SPNG_FMT_RGBA8, 0); spng_ihdr ih; spng_get_ihdr(d, &ih); spng_ctx_free(d);
    struct S { const char *name; int level, filter, strategy; };
    std::vector<S> settings = {
        {"libspng default (zlib 6, adaptive filter)", -1, -1, -1},
        {"level 9 adaptive", 9, SPNG_FILTER_CHOICE_ALL, -1},
        {"level 6 up", 6, SPNG_FILTER_CHOICE_UP, -1},
        {"level 4 up", 4, SPNG_FILTER_CHOICE_UP, -1},
        {"level 3 adaptive", 3, SPNG_FILTER_CHOICE_ALL, -1},
        {"level 3 up", 3, SPNG_FILTER_CHOICE_UP, -1},
        {"level 3 paeth", 3, SPNG_FILTER_CHOICE_PAETH, -1},
        {"level 2 up", 2, SPNG_FILTER_CHOICE_UP, -1},
        {"level 1 up", 1, SPNG_FILTER_CHOICE_UP, -1},
        {"level 1 adaptive", 1, SPNG_FILTER_CHOICE_ALL, -1},
        {"level 0 no filter", 0, SPNG_DISABLE_FILTERING, -1},
    };
    for (const S &s : settings) {
        double best = 1e9; size_t size = 0;
        for (int rep = 0; rep < 3; ++rep) {
            timespec c0; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
            spng_ctx *e = spng_ctx_new(SPNG_CTX_ENCODER); spng_set_option(e, SPNG_ENCODE_TO_BUFFER, 1);
            if (s.level >= 0) spng_set_option(e, SPNG_IMG_COMPRESSION_LEVEL, s.level);
            if (s.filter >= 0) spng_set_option(e, SPNG_FILTER_CHOICE, s.filter);
            if (s.strategy >= 0) spng_set_option(e, SPNG_IMG_COMPRESSION_STRATEGY, s.strategy);
            spng_ihdr h{}; h.width = ih.width; h.height = ih.height; h.bit_depth = 8; h.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
            spng_set_ihdr(e, &h);
            int rc = spng_encode_image(e, px.data(), px.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
            size_t len = 0; void *b = spng_get_png_buffer(e, &len, &rc); free(b); spng_ctx_free(e);
            timespec c1; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1); double ms = (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6;
            if (ms < best) best = ms; size = len;
        }
        std::printf("%-40s %8.0f ms cpu %8.2f MB\n", s.name, best, size / 1e6);
        std::fflush(stdout);
    }
}
