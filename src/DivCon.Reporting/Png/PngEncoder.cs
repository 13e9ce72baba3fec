using System.Buffers.Binary;
using System.IO.Compression;

namespace DivCon.Reporting.Png;

/// <summary>Writes 8-bit RGBA, non-interlaced PNG files (colour type 6). Each scanline gets the filter among
/// None, Sub, Up, Average and Paeth with the smallest sum of absolute residuals (the heuristic the PNG
/// specification recommends); the filtered bytes go through zlib (<see cref="ZLibStream"/>).</summary>
internal static class PngEncoder
{
    /// <summary>The eight bytes every PNG file starts with.</summary>
    public static ReadOnlySpan<byte> Signature => [137, 80, 78, 71, 13, 10, 26, 10];

    /// <summary>Encodes <paramref name="rgba"/> (row-major, 4 bytes per pixel, no padding).</summary>
    public static byte[] Encode(int width, int height, ReadOnlySpan<byte> rgba)
    {
        if (width <= 0 || height <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(width), $"Image size must be positive, got {width}x{height}.");
        }

        if (rgba.Length != checked(width * height * 4))
        {
            throw new ArgumentException($"Expected {width * height * 4} bytes of RGBA data, got {rgba.Length}.", nameof(rgba));
        }

        using var output = new MemoryStream();
        output.Write(Signature);

        Span<byte> header = stackalloc byte[13];
        BinaryPrimitives.WriteInt32BigEndian(header, width);
        BinaryPrimitives.WriteInt32BigEndian(header[4..], height);
        header[8] = 8;   // bit depth
        header[9] = 6;   // colour type: truecolour with alpha
        header[10] = 0;  // compression: deflate
        header[11] = 0;  // filter method 0 (adaptive, five filter types)
        header[12] = 0;  // no interlace
        WriteChunk(output, "IHDR"u8, header);

        WriteChunk(output, "IDAT"u8, Compress(width, height, rgba));
        WriteChunk(output, "IEND"u8, ReadOnlySpan<byte>.Empty);
        return output.ToArray();
    }

    private static byte[] Compress(int width, int height, ReadOnlySpan<byte> rgba)
    {
        int stride = width * 4;
        var filtered = new byte[stride];
        var best = new byte[stride];
        using var compressed = new MemoryStream();
        using (var zlib = new ZLibStream(compressed, CompressionLevel.Optimal, leaveOpen: true))
        {
            ReadOnlySpan<byte> previous = ReadOnlySpan<byte>.Empty;
            for (int y = 0; y < height; y++)
            {
                ReadOnlySpan<byte> row = rgba.Slice(y * stride, stride);
                long bestScore = long.MaxValue;
                byte bestFilter = 0;
                for (byte filter = 0; filter <= 4; filter++)
                {
                    long score = Filter(filter, row, previous, filtered);
                    if (score < bestScore)
                    {
                        bestScore = score;
                        bestFilter = filter;
                        filtered.CopyTo(best, 0);
                    }
                }

                zlib.WriteByte(bestFilter);
                zlib.Write(best);
                previous = row;
            }
        }

        return compressed.ToArray();
    }

    /// <summary>Filters one row into <paramref name="output"/> and returns the sum of the residuals taken as
    /// signed bytes (smaller compresses better). An empty <paramref name="previous"/> is the all-zero row above
    /// the first one. One loop per filter type keeps the per-byte work branch-free.</summary>
    private static long Filter(byte filter, ReadOnlySpan<byte> row, ReadOnlySpan<byte> previous, Span<byte> output)
    {
        int n = row.Length;
        bool first = previous.IsEmpty;
        switch (filter)
        {
            case 0:
                row.CopyTo(output);
                break;
            case 1:
                for (int i = 0; i < n; i++)
                {
                    output[i] = (byte)(row[i] - (i >= 4 ? row[i - 4] : 0));
                }

                break;
            case 2:
                for (int i = 0; i < n; i++)
                {
                    output[i] = (byte)(row[i] - (first ? 0 : previous[i]));
                }

                break;
            case 3:
                for (int i = 0; i < n; i++)
                {
                    int a = i >= 4 ? row[i - 4] : 0;
                    int b = first ? 0 : previous[i];
                    output[i] = (byte)(row[i] - ((a + b) >> 1));
                }

                break;
            default:
                for (int i = 0; i < n; i++)
                {
                    int a = i >= 4 ? row[i - 4] : 0;
                    int b = first ? 0 : previous[i];
                    int c = i >= 4 && !first ? previous[i - 4] : 0;
                    output[i] = (byte)(row[i] - Paeth(a, b, c));
                }

                break;
        }

        long score = 0;
        foreach (byte residual in output[..n])
        {
            int signed = (sbyte)residual;
            score += signed < 0 ? -signed : signed;
        }

        return score;
    }

    /// <summary>The Paeth predictor of the PNG specification: whichever of left, above, upper-left is closest
    /// to left + above - upper-left, ties broken in that order.</summary>
    internal static int Paeth(int a, int b, int c)
    {
        int p = a + b - c;
        int pa = Math.Abs(p - a);
        int pb = Math.Abs(p - b);
        int pc = Math.Abs(p - c);
        if (pa <= pb && pa <= pc)
        {
            return a;
        }

        return pb <= pc ? b : c;
    }

    private static void WriteChunk(Stream output, ReadOnlySpan<byte> type, ReadOnlySpan<byte> data)
    {
        Span<byte> word = stackalloc byte[4];
        BinaryPrimitives.WriteInt32BigEndian(word, data.Length);
        output.Write(word);
        output.Write(type);
        output.Write(data);
        // The CRC covers the chunk type and data, not the length.
        uint crc = Crc32.Update(Crc32.Update(0xFFFFFFFFu, type), data) ^ 0xFFFFFFFFu;
        BinaryPrimitives.WriteUInt32BigEndian(word, crc);
        output.Write(word);
    }
}
