/* SPDX-License-Identifier: Apache-2.0 */
/* The C interface between the runtime (libacl_rt.so) and DVPP's codec library (libacl_dvpp.so).
 *
 * Why: the codecs (JPEG/PNG over libjpeg-turbo and libpng, H.264/H.265 over FFmpeg) pull a large
 * tree of media libraries into every process that loads them. The runtime links none of them;
 * at the first DVPP call that needs a codec it dlopens libacl_dvpp.so (codec_loader.h) and takes
 * this table from its one exported entry point. The table is plain C (no C++ type, no exception
 * crosses it), so the two libraries share no C++ internals and there is still one runtime: the
 * codec library holds no runtime state, only pure codec functions and codec objects the runtime
 * owns through opaque handles.
 *
 * Conventions: functions returning int return 1 on success and 0 on failure, with a
 * NUL-terminated reason written to `why` (room `why_size`, truncated if longer). Pictures in
 * npusim_dvpp_picture are tight 8-bit 4:2:0 planes (chroma ceil(w/2) x ceil(h/2)). Sinks are
 * called synchronously, before the function returns; the data they see lives only for the call.
 * The semantics of each function are those of the C++ function it stands for (image_ops.h,
 * video_codec.h).
 */
#ifndef NPUSIM_RUNTIME_DVPP_CODEC_ABI_H_
#define NPUSIM_RUNTIME_DVPP_CODEC_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever the table's layout or a function's meaning changes. */
#define NPUSIM_DVPP_CODEC_ABI_VERSION 1u
/* The entry point libacl_dvpp.so exports (dlsym name). */
#define NPUSIM_DVPP_CODEC_ENTRY "npusim_dvpp_codecs"

typedef struct npusim_dvpp_image { /* image_ops.h Image */
  uint8_t* data;
  uint32_t width, height, width_stride, height_stride;
  int32_t kind; /* Image::Kind */
} npusim_dvpp_image;

typedef struct npusim_dvpp_jpeg_info { /* image_ops.h JpegInfo */
  uint32_t width, height;
  int32_t components, sampling, progressive, arithmetic;
} npusim_dvpp_jpeg_info;

typedef struct npusim_dvpp_png_info { /* image_ops.h PngInfo */
  uint32_t width, height;
  int32_t components, bit_depth;
} npusim_dvpp_png_info;

typedef struct npusim_dvpp_picture { /* video_codec.h YuvImage */
  uint32_t width, height;
  const uint8_t *y, *u, *v;
} npusim_dvpp_picture;

typedef struct npusim_dvpp_layout { /* video_codec.h Yuv420spLayout */
  uint32_t width, height, width_stride, height_stride;
  int32_t nv21; /* chroma order: 0 NV12, 1 NV21 */
} npusim_dvpp_layout;

typedef struct npusim_dvpp_venc_params { /* video_codec.h EncoderParams */
  int32_t codec;        /* VideoCodec: 0 H.264, 1 H.265 */
  int32_t h264_profile; /* H264Profile: 0 baseline, 1 main, 2 high */
  uint32_t width, height, key_frame_interval, frame_rate, bit_rate_kbps;
  int32_t constant_bit_rate;
} npusim_dvpp_venc_params;

typedef void (*npusim_dvpp_picture_sink)(void* ctx, const npusim_dvpp_picture* picture);
typedef void (*npusim_dvpp_packet_sink)(void* ctx, const uint8_t* data, size_t size);

typedef struct npusim_dvpp_codec_table {
  uint32_t abi_version; /* NPUSIM_DVPP_CODEC_ABI_VERSION */
  uint32_t size;        /* sizeof(npusim_dvpp_codec_table) */
  /* Still pictures (JPEGD, JPEGE, PNGD). */
  int (*jpeg_info)(const void* data, size_t size, npusim_dvpp_jpeg_info* info, char* why,
                   size_t why_size);
  int (*jpeg_decode)(const void* data, size_t size, const npusim_dvpp_image* out, char* why,
                     size_t why_size);
  int (*jpeg_encode)(const npusim_dvpp_image* in, int quality, void* dst, size_t capacity,
                     size_t* written, char* why, size_t why_size);
  int (*png_info)(const void* data, size_t size, npusim_dvpp_png_info* info, char* why,
                  size_t why_size);
  int (*png_decode)(const void* data, size_t size, const npusim_dvpp_image* out, char* why,
                    size_t why_size);
  /* VDEC: a decoder is an opaque handle (NULL + why when it cannot be made). */
  void* (*vdec_create)(int32_t codec, char* why, size_t why_size);
  int (*vdec_send)(void* decoder, const uint8_t* data, size_t size, npusim_dvpp_picture_sink sink,
                   void* ctx, char* why, size_t why_size);
  int (*vdec_flush)(void* decoder, npusim_dvpp_picture_sink sink, void* ctx, char* why,
                    size_t why_size);
  void (*vdec_destroy)(void* decoder);
  /* VENC. */
  int (*venc_available)(int32_t codec);
  void* (*venc_create)(const npusim_dvpp_venc_params* params, char* why, size_t why_size);
  int (*venc_encode)(void* encoder, const npusim_dvpp_picture* frame, int force_idr,
                     npusim_dvpp_packet_sink sink, void* ctx, char* why, size_t why_size);
  int (*venc_flush)(void* encoder, npusim_dvpp_packet_sink sink, void* ctx, char* why,
                    size_t why_size);
  void (*venc_destroy)(void* encoder);
  /* A decoded picture into a YUV420SP buffer (scaled with libswscale when sizes differ). */
  int (*write_yuv420sp)(const npusim_dvpp_picture* picture, const npusim_dvpp_layout* layout,
                        uint8_t* dst, size_t dst_size, char* why, size_t why_size);
} npusim_dvpp_codec_table;

/* The table, or NULL if this library does not implement `abi_version`. */
typedef const npusim_dvpp_codec_table* (*npusim_dvpp_codecs_fn)(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* NPUSIM_RUNTIME_DVPP_CODEC_ABI_H_ */
