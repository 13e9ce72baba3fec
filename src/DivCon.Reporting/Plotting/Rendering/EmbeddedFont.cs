using ScottPlot;
using SkiaSharp;

namespace DivCon.Reporting.Plotting.Rendering;

/// <summary>DejaVu Sans, regular and bold, read from this assembly's resources (Fonts/, with its licence) and
/// registered with ScottPlot as its default font. Skia looks for system fonts in /usr/share/fonts itself; on a
/// machine without fonts every label would silently vanish, and left alone ScottPlot picks whatever family it finds
/// first. Registered once, before the first figure renders (<see cref="EnsureRegistered"/>), ahead of ScottPlot's
/// system resolver, so an installed DejaVu (or any other font) changes nothing.</summary>
internal sealed class EmbeddedFont : IFontResolver
{
    /// <summary>The family name every figure asks for.</summary>
    public const string FamilyName = "DejaVu Sans";

    static EmbeddedFont()
    {
        // Runs once (the runtime serialises static constructors), before any figure asks for a typeface.
        Fonts.FontResolvers.Insert(0, new EmbeddedFont());
        Fonts.Default = FamilyName;
        Fonts.Sans = FamilyName;
    }

    private EmbeddedFont()
    {
    }

    /// <summary>The regular face, from the assembly.</summary>
    public static SKTypeface Regular { get; } = Load("DejaVuSans.ttf");

    /// <summary>The bold face, from the assembly.</summary>
    public static SKTypeface Bold { get; } = Load("DejaVuSans-Bold.ttf");

    /// <summary>Registers the font with ScottPlot if that has not happened yet.</summary>
    public static void EnsureRegistered()
    {
        // Touching a static member runs the static constructor exactly once.
    }

    public SKTypeface? CreateTypeface(string fontName, FontWeight weight, FontSlant slant, FontSpacing spacing) =>
        fontName == FamilyName ? (weight >= FontWeight.SemiBold ? Bold : Regular) : null;

    public SKTypeface? CreateTypeface(string fontName, bool bold, bool italic) =>
        CreateTypeface(fontName, bold ? FontWeight.Bold : FontWeight.Normal, italic ? FontSlant.Italic : FontSlant.Upright, FontSpacing.Normal);

    private static SKTypeface Load(string file)
    {
        using Stream stream = typeof(EmbeddedFont).Assembly.GetManifestResourceStream($"DivCon.Reporting.Fonts.{file}")
            ?? throw new InvalidOperationException($"The font resource {file} is missing from {typeof(EmbeddedFont).Assembly.GetName().Name}.");
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        // SKData.CreateCopy owns its bytes, so the typeface outlives the stream.
        return SKTypeface.FromData(SKData.CreateCopy(copy.ToArray()))
            ?? throw new InvalidOperationException($"Skia could not read the font resource {file}.");
    }
}
