# SPDX-License-Identifier: Apache-2.0
# VDEC/VENC's codec layer (runtime/dvpp/video_codec.*): plain C++ over FFmpeg's libavcodec
# (libx264/libx265 for encoding) and libswscale. Position-independent: it goes into
# libacl_dvpp.so.
pkg_check_modules(FFmpegVideo REQUIRED IMPORTED_TARGET libavcodec libavutil libswscale)
add_library(npusim_video_codec STATIC ${CMAKE_CURRENT_LIST_DIR}/video_codec.cpp)
set_target_properties(npusim_video_codec PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(npusim_video_codec PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(npusim_video_codec PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden)
target_link_libraries(npusim_video_codec PRIVATE PkgConfig::FFmpegVideo npusim_warnings)
