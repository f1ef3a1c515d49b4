#ifndef LANG_TYPES
#define LANG_TYPES
#define MAGIC 0x5A
#define TWICE(x) ((x) + (x))
typedef bit<8> byte_t;
type bit<16> port_id_t;
enum bit<8> Kind { A = 1, B = 2, C = 0x10 }
enum Color { Red, Green, Blue }
#endif
