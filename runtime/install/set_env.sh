# SPDX-License-Identifier: Apache-2.0
# npusim: the CANN-style top-level environment script; same as bin/setenv.bash.
# shellcheck source=/dev/null
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bin/setenv.bash"
