"""Media and document tools: ffmpeg, ImageMagick, pandoc, and their readers.

Converters read their inputs and write the outputs they name (graded by where they land); a URL among the words is
network. Every ImageMagick operand is graded as written (``+write FILE`` and similar ``+`` options name outputs among them);
ImageMagick reads a file name starting with ``|`` as a command to run, ``ephemeral:`` deletes the file after
reading it and ``msl:``/``mvg:`` are scripts (ImageMagick Security Policy and Formats docs): refused. pandoc filters
(``--filter``, ``--lua-filter``) run programs. ffmpeg's list and playlist inputs: programs/viewers.py ``ffmpeg_lists``.
"""

from __future__ import annotations

_MAGICK_UNSAFE = "| ephemeral: msl: mvg: @ text:@ label:@ caption:@ pango:@"
_MAGICK_OPTIONS = "-write=out -script=:runs -define=:unknown -process=:unknown"

CATALOGUE: dict[str, object] = {
    "ffmpeg": {
        "source": "ffmpeg(1) (FFmpeg 7): every word that is not an option or its value is an output file",
        "grade": "read",
        "open": True,
        "operands": "out",
        "options": "-i=in -f= -c= -codec= -vcodec= -acodec= -scodec= -b= -r= -s= -ss= -to= -t= -vf= -af= -filter= "
        "-filter_complex= -lavfi= -map= -ar= -ac= -crf= -preset= -q= -qscale= -aspect= -pix_fmt= "
        "-sample_fmt= -threads= -metadata= -loglevel= -v= -frames= -vframes= -aframes= -movflags= -tune= "
        "-profile= -level= -g= -bufsize= -maxrate= -minrate= -vbr= -stream_loop= -itsoffset= -vn -an -sn "
        "-dn -y -n -re -shortest -hide_banner -nostdin -stats -c:*= -b:*= -q:*= -filter:*= -codec:*= "
        "-map_metadata= -map_chapters= -disposition= -fps_mode= -vsync= -hwaccel= -pass= -passlogfile=out "
        "-filter_complex_script=:unknown -filter_script=:unknown -/*:unknown -report -dump_attachment*:unknown -attach=in -progress=out "
        "-sdp_file=out -vstats_file=out -timelimit= -ab= -vb= -qp= -x264-params= -x265-params= -safe= "
        "-allowed_extensions= -protocol_whitelist= -protocol_blacklist=",
        "guard": "viewers:ffmpeg_lists",
        # a filtergraph read from a file (-filter_script, -filter_complex_script, and ffmpeg 7's "-/OPTION FILE":
        # "the option value is read from the file") may write files or load libraries FlyBot does not see: refused
        # ffmpeg-protocols(1) "file": an output named file:PATH is PATH; ffmpeg-formats(1) "tee": the tee muxer
        # writes every output named in its file name, separated by "|" (each may carry [options] first)
        "prefixed": True,
        "when": {"-f=tee": "unknown"},
    },
    # ffprobe's options are whole single-dash words (-show_format, -of json): never short clusters
    "ffprobe": {
        "source": "ffprobe(1) (FFmpeg 7): -o names the output file",
        "grade": "read",
        "open": True,
        "clusters": False,
        "options": "-o=out -report -i=in -f= -safe= -allowed_extensions= -protocol_whitelist= -protocol_blacklist= "
        "-/*:unknown",
        "guard": "viewers:ffmpeg_lists",
    },
    "ffplay": {
        "source": "ffplay(1) (FFmpeg 7): plays media",
        "grade": "read",
        "open": True,
        "options": "-i=in -f= -safe= -allowed_extensions= -protocol_whitelist= -protocol_blacklist= -/*:unknown",
        "guard": "viewers:ffmpeg_lists",
    },
    "magick": {
        "source": "magick(1) (ImageMagick 7): magick [convert|compare|composite|montage|identify|mogrify] ...; "
        "a file named FORMAT:PATH is written at PATH in that format (ImageMagick Command-line Processing, "
        "Filename References: png:rose)",
        "prefixed": True,
        "grade": "read",
        "open": True,
        "operands": "out",
        "unsafe": _MAGICK_UNSAFE,
        "options": _MAGICK_OPTIONS,
        "else": "read",
        "commands": {
            "convert compare composite montage import stream conjure": {"grade": "read", "operands": "out"},
            "identify": {"grade": "read"},
            "mogrify": {"grade": "read", "operands": "out"},
            "display animate": "read",
        },
    },
    "convert compare composite montage": {
        "source": "ImageMagick 6 convert(1), compare(1), composite(1), montage(1): the last file named is the output "
        "(FORMAT:PATH is PATH)",
        "prefixed": True,
        "grade": "read",
        "open": True,
        "operands": "out",
        "unsafe": _MAGICK_UNSAFE,
        "options": _MAGICK_OPTIONS,
    },
    "identify": {"source": "identify(1) (ImageMagick)", "grade": "read", "open": True, "unsafe": _MAGICK_UNSAFE},
    "mogrify": {
        "source": "mogrify(1) (ImageMagick): rewrites each file in place (FORMAT:PATH is PATH)",
        "prefixed": True,
        "grade": "read",
        "open": True,
        "operands": "out",
        "unsafe": _MAGICK_UNSAFE,
        "options": _MAGICK_OPTIONS + " -path=out",
    },
    "pandoc": {
        "source": "pandoc(1) User's Guide (pandoc 3.5)",
        "grade": "read",
        "open": True,
        "options": "-o=out --output=out -f= --from= -r= --read= -t= --to= -w= --write= -s --standalone "
        "--template=in --toc --extract-media=out --filter=:runs -F=:runs --lua-filter=:runs -L=:runs "
        "--pdf-engine=:unknown --pdf-engine-opt=:unknown -d=:unknown --defaults=:unknown "
        "--data-dir=:unknown --resource-path= -M= --metadata= -V= --variable= --css= -c= "
        "--reference-doc=in --bibliography=in --citeproc -C --log=out --print-default-data-file= "
        "--print-default-template= --list-input-formats --list-output-formats --list-extensions "
        "--list-highlight-styles --self-contained --embed-resources --shift-heading-level-by= "
        "--wrap= --columns= --mathjax --katex --number-sections -N --highlight-style= "
        "--syntax-definition=in --include-in-header=in -H=in --include-before-body=in -B=in "
        "--include-after-body=in -A=in --request-header= --no-check-certificate --sandbox",
        "guard": "viewers:pandoc_includes",  # include directives and embedded images show other files
    },
    "exiftool": {
        "source": "exiftool(1) (ExifTool 13): -TAG=VALUE, -TAG<SRC, -all= (WRITING META INFORMATION), -tagsFromFile, "
        "-geotag, -csv=FILE and -restore_original rewrite each file given (keeping FILE_original unless "
        "-overwrite_original; with -o OUTFILE they are graded as written too); FileName, Directory, HardLink and SymLink move or "
        "link the files; ${TAG;EXPR}, -if, -config, -api Filter and a -p format file run Perl; -TAG alone reads a "
        "tag and is not listed, so it is refused",
        "grade": "read",
        "clusters": False,  # exiftool's options are words (-delete_original!, -ver), never letters run together
        "assigns": {"operands": "out", "refused": "filename directory hardlink symlink"},
        "options": "-a -u -g -G -s -S -j -X -csv -b -n -r -ext= -q -ver -l -h -H -D -p=:unknown -all -common "
        "-time:all -o=out -overwrite_original -overwrite_original_in_place -delete_original:delete "
        "-delete_original!:delete "
        "-tagsFromFile=in -tagsfromfile=in -geotag=in -restore_original -w=:unknown -config=:unknown -@=:unknown "
        "-if=:unknown -api=:unknown -charset= -d=",
        "when": {"-tagsFromFile -tagsfromfile -geotag -restore_original": {"operands": "out"}},
    },
    "yt-dlp youtube-dl": {
        "source": "yt-dlp README: OPTIONS (yt-dlp 2024): downloads from the web into the current directory",
        "grade": "fetch",
        "open": True,
        "options": "-o=out --output=out -P=out --paths=out --exec=:runs --exec-before-download=:runs "
        "--postprocessor-args=:unknown --ppa=:unknown --config-locations=:unknown --batch-file=in -a=in "
        "--downloader=:unknown --external-downloader=:unknown --cookies-from-browser=:secret "
        "--cookies=out -U:install --update:install --update-to=:install --netrc-cmd=:runs --plugin-dirs=:unknown "
        "--ffmpeg-location=:unknown --load-info-json=in "
        # "--cookies FILE: Netscape formatted file to read cookies from and dump cookie jar in"; "--download-archive
        # FILE: ... Record the IDs of all downloaded videos in it"; "--cache-dir DIR"; "--print-to-file [WHEN:]TEMPLATE
        # FILE: Append given template to the file" (its FILE, the word after the template: programs/outputs.py)
        "--download-archive=out --cache-dir=out --print-to-file=",
        "guard": "outputs:yt_dlp_print_to_file packages:yt_dlp_update",
    },
    "xmlstarlet xml": {
        "source": "xmlstarlet(1) (XMLStarlet 1.6): ed -L edits in place; tr applies XSLT (which may write files)",
        "options": "--version --help -q --no-doc-namespace --doc-namespace",
        "commands": {
            "sel select el elements val validate fo format c14n canonic ls list esc escape unesc unescape pyx "
            "p2x depyx": {"grade": "read", "open": True},
            "ed edit": {
                "grade": "read",
                "open": True,
                "options": "-L --inplace",
                "when": {"-L --inplace": {"operands": "out"}},
            },
            "tr transform": "unknown",
        },
    },
    "dot neato circo fdp sfdp twopi osage patchwork": {
        "source": 'dot(1) (Graphviz 12): -o names the output, -O writes next to each input; -c "Configure plugins '
        '(Writes $prefix/lib/graphviz/config with available plugin information. Needs write privilege.)": the '
        "list of plugin libraries every later run loads, in the install tree",
        "grade": "read",
        "open": True,
        "options": "-o=out -O:write -T* -c:critical",
        # -O: "Automatically generate an output filename based on the input filename with a .'format' appended"
        # (next to each input file: programs/outputs.py)
        "guard": "outputs:dot_beside_input",
    },
    "plantuml": {
        "source": "PlantUML command line (plantuml.com/command-line): writes images next to the sources",
        "grade": "write",
        "open": True,
        "options": "-o=out -output=out -pipe:read -config=in -I=in",
    },
    "pngquant": {
        "source": "pngquant(1) (pngquant 3): writes FILE-fs8.png, or -o/--output, --ext; --force overwrites",
        "grade": "write",
        "open": True,
        "options": "-o=out --output=out --ext= -f --force",
        # each FILE's output is FILE with .png replaced by the --ext suffix, next to it: programs/outputs.py
        "guard": "outputs:pngquant_ext",
    },
    "oxipng": {
        "source": "oxipng README (oxipng 9): optimizes files in place unless --out/--dir/--stdout",
        "grade": "read",
        "open": True,
        "operands": "out",
        "options": "--out=out --dir=out --stdout",
    },
    "asciinema": {
        "source": "asciinema CLI (docs.asciinema.org/manual/cli) (asciinema 2.4)",
        "options": "-h --help --version",
        "commands": {
            # rec without -c records the user's $SHELL, reading its commands from standard input
            "rec": {
                "grade": "runs",
                "open": True,
                "operands": "first-out",
                "options": "-c=:runs --command=:runs",
                "when": {"-c --command": "read"},
            },
            "play cat": {"grade": "read", "open": True},
            "upload": {"grade": "publish", "open": True},
            "auth": "home",
        },
    },
    "groff nroff troff": {
        "source": "groff(1) (groff 1.23): -U allows unsafe requests (running commands, writing files); groff(7): "
        ".so, .mso and .cf read the files a document names, also in safer mode",
        "grade": "read",
        "open": True,
        "options": "-U:unknown --unsafe:unknown",
        "guard": "viewers:groff_includes",
    },
    "feh": {
        "source": "feh(1) (feh 3.10): --action runs a command",
        "grade": "read",
        "open": True,
        "options": "--action=:runs -A=:runs --action1=:runs --info=:runs -o=out --output=out -O=out "
        "--output-only=out --fontpath= --delete:delete",
    },
    "pdftoppm pdftocairo": {
        "source": "pdftoppm(1), pdftocairo(1) (poppler 24): render PDF pages to image files named after the root given "
        "last",
        "grade": "write",
        "open": True,
        "operands": "last-out",
    },
    # image optimisers and PDF tools (single-dash whole-word options for optipng and cwebp)
    "optipng": {
        "source": "optipng(1) (OptiPNG 0.7.8): rewrites the files given in place unless -out/-dir names the output or "
        "-simulate writes nothing",
        "grade": "read",
        "clusters": False,
        "operands": "out",
        "options": "-o* -out=out -dir=out -log=out -backup -keep -clobber -fix -force -preserve -quiet -simulate "
        "-snip -strip= -v -zc* -zm* -zs* -zw* -f* -i* -nb -nc -np -nx -nz -full -help -version",
        "when": {"-out -dir -simulate": {"operands": "none"}},
    },
    "gifsicle": {
        "source": "gifsicle(1) (Gifsicle 1.95): writes standard output or -o FILE; -b/--batch rewrites the inputs in "
        "place and -e/--explode writes one file per frame next to them",
        "grade": "read",
        "open": True,
        "options": "-o=out --output=out -b --batch -e --explode -E --explode-by-name -O* --optimize* --lossy* "
        "--colors= -k= --resize= --scale= --crop= --rotate-* -d= --delay= -l* --loopcount*",
        "when": {"-b --batch -e --explode -E --explode-by-name": {"operands": "out"}},
    },
    "cwebp dwebp": {
        "source": "cwebp(1), dwebp(1) (libwebp 1.4): -o names the output (standard output without it)",
        "grade": "read",
        "open": True,
        "clusters": False,
        "options": "-o=out -d=out -version -h -help -H -longhelp",
    },
    "qpdf": {
        "source": "qpdf manual, 'Running qpdf' (qpdf 11): qpdf [options] infile outfile; --replace-input rewrites "
        "infile; --job-json-file and @file read further options (outputs among them)",
        "grade": "read",
        "open": True,
        "operands": "last-out",
        "options": "--replace-input --job-json-file=:unknown @*:unknown --password= --decrypt --linearize "
        "--split-pages* --qdf --object-streams= --compress-streams= --empty --version --help --check --show-npages "
        "--json* --pages --rotate= --encrypt --remove-restrictions --deterministic-id --warning-exit-0",
        "when": {"--replace-input": {"operands": "out"}},
    },
    # sox IN... OUT [EFFECT...] converts the input files into the output; an input named "|program args" is the
    # output of a program it runs; -d (--default-device) records from or plays to the sound card; effects may
    # name files written (noiseprof FILE): every operand is graded as a file written
    "sox": {
        "source": 'sox(1) (SoX 14.4): input and output files, special filenames (-d, -n, -p, "|program"), effects',
        "grade": "write",
        "open": True,
        "operands": "out",
        "unsafe": "|",
        "options": "-d:unknown --default-device:unknown --effects-file=in --i --info --version -h --help "
        "--help-effect= --help-format=",
        "when": {"--i --info --version -h --help --help-effect --help-format": {"grade": "read", "operands": "none"}},
    },
    "soxi": {
        "source": "soxi(1) (SoX 14.4): prints the header information of audio files",
        "grade": "read",
        "open": True,
        "unsafe": "|",
    },
}
