using System.Buffers.Binary;
using DivCon.Reporting.Plotting;
using DivCon.Reporting.Png;

namespace DivCon.Tests.Reporting;

public sealed class PngCodecTests
{
    [Theory]
    [InlineData("", 0x00000000u)]
    [InlineData("123456789", 0xCBF43926u)] // the standard CRC-32 check value
    [InlineData("IEND", 0xAE426082u)]      // every PNG ends with this CRC
    public void Crc32_MatchesKnownValues(string text, uint expected)
    {
        Assert.Equal(expected, Crc32.Compute(System.Text.Encoding.ASCII.GetBytes(text)));
    }

    [Theory]
    [InlineData(1, 1)]
    [InlineData(7, 3)]
    [InlineData(64, 48)]
    public void RoundTrip_GivesBackTheSamePixels(int width, int height)
    {
        var random = new Random(width * 31 + height);
        var image = new RgbaImage(width, height, PlotColor.White);
        for (int y = 0; y < height; y++)
        {
            for (int x = 0; x < width; x++)
            {
                // Mix noise with smooth gradients so every filter type gets chosen somewhere.
                byte r = (byte)random.Next(256), g = (byte)(x * 4), b = (byte)(y * 5), a = (byte)(x % 3 == 0 ? 255 : random.Next(256));
                image.SetPixel(x, y, new PlotColor(r, g, b, a));
            }
        }

        RgbaImage decoded = RgbaImage.DecodePng(image.EncodePng());

        Assert.Equal(width, decoded.Width);
        Assert.Equal(height, decoded.Height);
        for (int y = 0; y < height; y++)
        {
            for (int x = 0; x < width; x++)
            {
                Assert.Equal(image.GetPixel(x, y), decoded.GetPixel(x, y));
            }
        }
    }

    [Fact]
    public void Encoded_HasSignatureHeaderAndValidChunkCrcs()
    {
        byte[] png = new RgbaImage(5, 4, PlotColor.FromHex("#336699")).EncodePng();

        Assert.Equal(new byte[] { 137, 80, 78, 71, 13, 10, 26, 10 }, png[..8]);
        var chunks = new List<string>();
        int offset = 8;
        while (offset < png.Length)
        {
            int length = BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(offset));
            string type = System.Text.Encoding.ASCII.GetString(png, offset + 4, 4);
            uint stored = BinaryPrimitives.ReadUInt32BigEndian(png.AsSpan(offset + 8 + length));
            Assert.Equal(Crc32.Compute(png.AsSpan(offset + 4, 4 + length)), stored);
            if (type == "IHDR")
            {
                Assert.Equal(5, BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(offset + 8)));
                Assert.Equal(4, BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(offset + 12)));
                Assert.Equal(8, png[offset + 16]); // bit depth
                Assert.Equal(6, png[offset + 17]); // RGBA
            }

            chunks.Add(type);
            offset += 12 + length;
        }

        Assert.Equal(png.Length, offset);
        Assert.Equal(["IHDR", "IDAT", "IEND"], chunks);
        Assert.Equal(0xAE426082u, BinaryPrimitives.ReadUInt32BigEndian(png.AsSpan(png.Length - 4)));
    }

    [Fact]
    public void Decode_RejectsACorruptedChunk()
    {
        byte[] png = new RgbaImage(8, 8, PlotColor.Black).EncodePng();
        png[8 + 8 + 2] ^= 0x01; // a byte of the IHDR width

        var error = Assert.Throws<InvalidDataException>(() => RgbaImage.DecodePng(png));
        Assert.Contains("CRC", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Decode_RejectsMissingSignatureAndTruncation()
    {
        byte[] png = new RgbaImage(8, 8, PlotColor.Black).EncodePng();

        Assert.Throws<InvalidDataException>(() => RgbaImage.DecodePng(png.AsSpan(1).ToArray()));
        Assert.Throws<InvalidDataException>(() => RgbaImage.DecodePng(png.AsSpan(0, png.Length - 20).ToArray()));
    }

    [Fact]
    public void Decode_RejectsOtherPngFlavoursClearly()
    {
        byte[] png = new RgbaImage(2, 2, PlotColor.Black).EncodePng();
        png[8 + 8 + 9] = 2; // colour type RGB instead of RGBA; re-sign the chunk so only the flavour is wrong
        BinaryPrimitives.WriteUInt32BigEndian(png.AsSpan(8 + 8 + 13), Crc32.Compute(png.AsSpan(8 + 4, 4 + 13)));

        Assert.Throws<NotSupportedException>(() => RgbaImage.DecodePng(png));
    }
}
