using System.Buffers.Binary;
using System.IO.Compression;

namespace DivCon.Reporting.Png;

/// <summary>Reads back what <see cref="PngEncoder"/> writes: 8-bit RGBA (colour type 6), non-interlaced, any of
/// the five scanline filters. Every chunk's CRC is checked. Other PNG flavours (palettes, 16-bit, interlacing)
/// are rejected with <see cref="NotSupportedException"/>: this decoder exists so tests and tools can inspect
/// DivCon's own plots, not to read arbitrary images.</summary>
internal static class PngDecoder
{
    /// <summary>Decodes <paramref name="png"/> to its size and RGBA bytes (row-major, 4 bytes per pixel).</summary>
    /// <exception cref="InvalidDataException">Bad signature, truncated data, a chunk CRC mismatch, a missing
    /// IHDR/IDAT/IEND, or a pixel data length that does not match the header.</exception>
    public static (int Width, int Height, byte[] Rgba) Decode(ReadOnlySpan<byte> png)
    {
        if (png.Length < 8 || !png[..8].SequenceEqual(PngEncoder.Signature))
        {
            throw new InvalidDataException("Not a PNG file: the 8-byte signature is missing.");
        }

        int width = 0, height = 0;
        bool sawHeader = false, sawEnd = false;
        using var idat = new MemoryStream();
        int offset = 8;
        while (offset < png.Length && !sawEnd)
        {
            if (offset + 12 > png.Length)
            {
                throw new InvalidDataException($"Truncated chunk header at byte {offset}.");
            }

            int length = BinaryPrimitives.ReadInt32BigEndian(png[offset..]);
            if (length < 0 || offset + 12L + length > png.Length)
            {
                throw new InvalidDataException($"Chunk at byte {offset} claims {length} bytes, past the end of the file.");
            }

            ReadOnlySpan<byte> type = png.Slice(offset + 4, 4);
            ReadOnlySpan<byte> data = png.Slice(offset + 8, length);
            uint stored = BinaryPrimitives.ReadUInt32BigEndian(png[(offset + 8 + length)..]);
            uint actual = Crc32.Update(Crc32.Update(0xFFFFFFFFu, type), data) ^ 0xFFFFFFFFu;
            string name = System.Text.Encoding.ASCII.GetString(type);
            if (stored != actual)
            {
                throw new InvalidDataException($"CRC mismatch in chunk {name} at byte {offset}: stored 0x{stored:X8}, computed 0x{actual:X8}.");
            }

            switch (name)
            {
                case "IHDR":
                    if (length != 13)
                    {
                        throw new InvalidDataException("IHDR must hold 13 bytes.");
                    }

                    width = BinaryPrimitives.ReadInt32BigEndian(data);
                    height = BinaryPrimitives.ReadInt32BigEndian(data[4..]);
                    if (data[8] != 8 || data[9] != 6 || data[10] != 0 || data[11] != 0 || data[12] != 0)
                    {
                        throw new NotSupportedException(
                            $"Only 8-bit RGBA non-interlaced PNG is supported (bit depth {data[8]}, colour type {data[9]}, interlace {data[12]}).");
                    }

                    if (width <= 0 || height <= 0)
                    {
                        throw new InvalidDataException($"Invalid image size {width}x{height}.");
                    }

                    sawHeader = true;
                    break;
                case "IDAT":
                    idat.Write(data);
                    break;
                case "IEND":
                    sawEnd = true;
                    break;
            }

            offset += 12 + length;
        }

        if (!sawHeader || !sawEnd || idat.Length == 0)
        {
            throw new InvalidDataException("PNG is missing its IHDR, IDAT or IEND chunk.");
        }

        return (width, height, Unfilter(width, height, idat.ToArray()));
    }

    private static byte[] Unfilter(int width, int height, byte[] compressed)
    {
        int stride = width * 4;
        byte[] raw;
        using (var input = new ZLibStream(new MemoryStream(compressed), CompressionMode.Decompress))
        using (var inflated = new MemoryStream())
        {
            input.CopyTo(inflated);
            raw = inflated.ToArray();
        }

        if (raw.Length != (long)(stride + 1) * height)
        {
            throw new InvalidDataException($"Pixel data holds {raw.Length} bytes, expected {(long)(stride + 1) * height}.");
        }

        var rgba = new byte[stride * height];
        for (int y = 0; y < height; y++)
        {
            byte filter = raw[y * (stride + 1)];
            ReadOnlySpan<byte> source = raw.AsSpan(y * (stride + 1) + 1, stride);
            Span<byte> row = rgba.AsSpan(y * stride, stride);
            ReadOnlySpan<byte> above = y == 0 ? ReadOnlySpan<byte>.Empty : rgba.AsSpan((y - 1) * stride, stride);
            for (int i = 0; i < stride; i++)
            {
                int a = i >= 4 ? row[i - 4] : 0;
                int b = above.IsEmpty ? 0 : above[i];
                int c = i >= 4 && !above.IsEmpty ? above[i - 4] : 0;
                int predictor = filter switch
                {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => (a + b) >> 1,
                    4 => PngEncoder.Paeth(a, b, c),
                    _ => throw new InvalidDataException($"Unknown filter type {filter} on row {y}."),
                };
                row[i] = (byte)(source[i] + predictor);
            }
        }

        return rgba;
    }
}
