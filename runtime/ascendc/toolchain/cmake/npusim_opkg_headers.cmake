# SPDX-License-Identifier: Apache-2.0
# Copies the generated aclnn headers (AUTOGEN/aclnn_*.h) into DEST (the package's op_api/include).
file(GLOB headers "${AUTOGEN}/aclnn_*.h")
file(MAKE_DIRECTORY "${DEST}")
file(COPY ${headers} DESTINATION "${DEST}")
