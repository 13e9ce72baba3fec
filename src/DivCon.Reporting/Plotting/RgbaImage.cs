using DivCon.Reporting.Png;

namespace DivCon.Reporting.Plotting;

/// <summary>A raster of 8-bit RGBA pixels, row-major from the top-left corner, with PNG encoding and decoding.
/// The decoder reads what the encoder writes (8-bit RGBA, non-interlaced); it is there so tests and tools can
/// check the pixels of a saved plot.</summary>
public sealed class RgbaImage
{
    private readonly byte[] _pixels;

    /// <summary>A <paramref name="width"/> × <paramref name="height"/> image filled with
    /// <paramref name="fill"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A size is not in 1–16384.</exception>
    public RgbaImage(int width, int height, PlotColor fill)
    {
        ValidateSize(width, height);
        Width = width;
        Height = height;
        _pixels = new byte[width * height * 4];
        for (int i = 0; i < _pixels.Length; i += 4)
        {
            _pixels[i] = fill.R;
            _pixels[i + 1] = fill.G;
            _pixels[i + 2] = fill.B;
            _pixels[i + 3] = fill.A;
        }
    }

    private RgbaImage(int width, int height, byte[] pixels)
    {
        Width = width;
        Height = height;
        _pixels = pixels;
    }

    /// <summary>The largest width or height accepted, in pixels.</summary>
    public const int MaxSize = 16384;

    /// <summary>Width in pixels.</summary>
    public int Width { get; }

    /// <summary>Height in pixels.</summary>
    public int Height { get; }

    /// <summary>The raw pixels: 4 bytes (R, G, B, A) per pixel, row-major, no padding.</summary>
    internal Span<byte> Pixels => _pixels;

    /// <summary>The pixel at column <paramref name="x"/>, row <paramref name="y"/> (0, 0 is the top-left).</summary>
    public PlotColor GetPixel(int x, int y)
    {
        int i = Index(x, y);
        return new PlotColor(_pixels[i], _pixels[i + 1], _pixels[i + 2], _pixels[i + 3]);
    }

    /// <summary>Sets the pixel at column <paramref name="x"/>, row <paramref name="y"/> (no blending).</summary>
    public void SetPixel(int x, int y, PlotColor color)
    {
        int i = Index(x, y);
        _pixels[i] = color.R;
        _pixels[i + 1] = color.G;
        _pixels[i + 2] = color.B;
        _pixels[i + 3] = color.A;
    }

    /// <summary>The image as a PNG file (8-bit RGBA).</summary>
    public byte[] EncodePng() => PngEncoder.Encode(Width, Height, _pixels);

    /// <summary>Decodes a PNG written by <see cref="EncodePng"/> (8-bit RGBA, non-interlaced), checking the
    /// signature and every chunk's CRC.</summary>
    /// <exception cref="InvalidDataException">The data is not a well-formed PNG (bad signature, CRC mismatch,
    /// truncation, missing chunks).</exception>
    /// <exception cref="NotSupportedException">A valid PNG of another flavour (palette, 16-bit, interlaced).</exception>
    public static RgbaImage DecodePng(ReadOnlySpan<byte> png)
    {
        var (width, height, rgba) = PngDecoder.Decode(png);
        ValidateSize(width, height);
        return new RgbaImage(width, height, rgba);
    }

    private int Index(int x, int y)
    {
        if ((uint)x >= (uint)Width || (uint)y >= (uint)Height)
        {
            throw new ArgumentOutOfRangeException(nameof(x), $"Pixel ({x}, {y}) is outside the {Width}x{Height} image.");
        }

        return (y * Width + x) * 4;
    }

    private static void ValidateSize(int width, int height)
    {
        if (width < 1 || width > MaxSize || height < 1 || height > MaxSize)
        {
            throw new ArgumentOutOfRangeException(nameof(width), $"Image size must be 1–{MaxSize} pixels each way, got {width}x{height}.");
        }
    }
}
