/* crc32c: CRC-32C (Castagnoli), the checksum of each record in a recording
 * (as iSCSI, ext4 and btrfs use it: better burst detection than CRC-32). */
#ifndef BLKTUNE_CRC32C_H
#define BLKTUNE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue crc over len bytes; start with 0. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
