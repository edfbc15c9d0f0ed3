# SPDX-License-Identifier: Apache-2.0
# VDEC/VENC (aclvdec*/aclvenc*) and DVPP's codec library.
#  - npusim_video_layout: the plain part of the video layer (video_layout.cpp: layouts, picture
#    copies), used by the runtime and by the codec layer.
#  - npusim_video_codec: the codec layer (video_codec.*, plain C++ over FFmpeg's libavcodec with
#    libx264/libx265 for encoding, and libswscale; position-independent).
#  - acl_dvpp: libacl_dvpp.so, the codec library (codec_library.cpp: the C table of
#    codec_abi.h over image_codecs.cpp and npusim_video_codec). Only it links the media
#    libraries; the runtime dlopens it (codec_loader.h).
#  - the channels and C skin, added to the DVPP API library.
# NPUSIM_DVPP_CODECS=OFF (CMakeLists.txt) builds only the plain parts: no codec library.
add_library(npusim_video_layout STATIC ${CMAKE_CURRENT_LIST_DIR}/video_layout.cpp)
set_target_properties(npusim_video_layout PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(npusim_video_layout PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(npusim_video_layout PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden)
target_link_libraries(npusim_video_layout PRIVATE npusim_warnings)

target_sources(npusim_dvpp PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/video_channel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/acl_vdec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/acl_venc.cpp)
target_link_libraries(npusim_dvpp PRIVATE npusim_video_layout)
if(NOT NPUSIM_DVPP_CODECS)
  return()
endif()

pkg_check_modules(FFmpegVideo REQUIRED IMPORTED_TARGET libavcodec libavutil libswscale)
add_library(npusim_video_codec STATIC ${CMAKE_CURRENT_LIST_DIR}/video_codec.cpp)
set_target_properties(npusim_video_codec PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(npusim_video_codec PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(npusim_video_codec PRIVATE -fvisibility=hidden -fvisibility-inlines-hidden)
target_link_libraries(npusim_video_codec PUBLIC npusim_video_layout
  PRIVATE PkgConfig::FFmpegVideo npusim_warnings)

add_library(acl_dvpp SHARED
  ${CMAKE_CURRENT_LIST_DIR}/codec_library.cpp
  ${CMAKE_CURRENT_LIST_DIR}/image_codecs.cpp)
set_target_properties(acl_dvpp PROPERTIES
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/runtime)  # beside libacl_rt.so
target_include_directories(acl_dvpp PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(acl_dvpp PRIVATE npusim_video_codec PkgConfig::JPEG PkgConfig::PNG
  npusim_warnings)
target_link_options(acl_dvpp PRIVATE -Wl,--exclude-libs,ALL -Wl,--no-undefined)

add_dependencies(npusim_dvpp acl_dvpp)
