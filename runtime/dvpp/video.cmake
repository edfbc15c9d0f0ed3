# SPDX-License-Identifier: Apache-2.0
# VDEC/VENC (aclvdec*/aclvenc*): the codec layer (runtime/dvpp/video_codec.*, plain C++ over
# FFmpeg's libavcodec with libx264/libx265 for encoding, and libswscale; position-independent,
# it goes into libacl_rt.so) and the channels and C skin, added to the DVPP API library.
pkg_check_modules(FFmpegVideo REQUIRED IMPORTED_TARGET libavcodec libavutil libswscale)
add_library(npusim_video_codec STATIC ${CMAKE_CURRENT_LIST_DIR}/video_codec.cpp)
set_target_properties(npusim_video_codec PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(npusim_video_codec PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(npusim_video_codec PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden)
target_link_libraries(npusim_video_codec PRIVATE PkgConfig::FFmpegVideo npusim_warnings)

target_sources(npusim_dvpp PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/video_channel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/acl_video.cpp)
target_link_libraries(npusim_dvpp PRIVATE npusim_video_codec)
