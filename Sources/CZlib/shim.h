#ifndef GLIMPSE_CZLIB_SHIM_H
#define GLIMPSE_CZLIB_SHIM_H
#include <zlib.h>
#endif
