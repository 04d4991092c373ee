// GlimpseCache: the memory LRU and the disk cache. They store values and
// bytes and know nothing about image formats (see the cache issue).
