using System.Globalization;

namespace DivCon.Reporting.Plotting;

/// <summary>An 8-bit RGBA colour (straight, not premultiplied, alpha).</summary>
/// <param name="R">Red, 0–255.</param>
/// <param name="G">Green, 0–255.</param>
/// <param name="B">Blue, 0–255.</param>
/// <param name="A">Opacity, 0 (transparent) – 255 (opaque).</param>
public readonly record struct PlotColor(byte R, byte G, byte B, byte A = 255)
{
    /// <summary>Parses <c>#RRGGBB</c> or <c>#RRGGBBAA</c> (the <c>#</c> is optional).</summary>
    /// <exception cref="ArgumentException">The text is not 6 or 8 hexadecimal digits.</exception>
    public static PlotColor FromHex(string hex)
    {
        ArgumentNullException.ThrowIfNull(hex);
        string digits = hex.StartsWith('#') ? hex[1..] : hex;
        if ((digits.Length != 6 && digits.Length != 8)
            || !uint.TryParse(digits, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out uint value))
        {
            throw new ArgumentException($"Expected a colour as #RRGGBB or #RRGGBBAA, got '{hex}'.", nameof(hex));
        }

        return digits.Length == 6
            ? new PlotColor((byte)(value >> 16), (byte)(value >> 8), (byte)value)
            : new PlotColor((byte)(value >> 24), (byte)(value >> 16), (byte)(value >> 8), (byte)value);
    }

    /// <summary><c>#RRGGBBAA</c>, invariant.</summary>
    public override string ToString() => $"#{R:X2}{G:X2}{B:X2}{A:X2}";
}
