"""Catalogued programs whose options, operands or subcommands write outside the workspace, run programs, reach
the network or print secrets (the sources are in the catalogue entries), each beside its everyday form."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

R = RiskLevel


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return project(tmp_path, {"README.md": "x\n"})


# -- hostile: graded at least this high ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "least"),
    [
        # writes outside the workspace through an option or operand the entry did not name
        ("cosign generate-key-pair --output-key-prefix /etc/cron.d/x", R.DESTRUCTIVE),
        ("k3d config init -o /etc/x.yaml", R.DESTRUCTIVE),
        ("k3d config migrate in.yaml /etc/x.yaml", R.DESTRUCTIVE),
        ("multipass transfer vm:/etc/passwd /root/.bashrc", R.DESTRUCTIVE),
        ("minikube cp minikube:/etc/x /root/.bashrc", R.DESTRUCTIVE),
        ("ssh-keygen -M generate -O bits=2048 /root/.bashrc", R.DESTRUCTIVE),
        ("ssh-keygen -Y sign -f key -n file /etc/cron.d/x", R.DESTRUCTIVE),
        ("ssh-keygen -s ca_key -I id -n user /etc/ssh/x.pub", R.DESTRUCTIVE),
        ("ssh-keygen -t ed25519-sk -O write-attestation=/root/.bashrc -f k", R.DESTRUCTIVE),
        ("pg_basebackup -D ./bk --waldir=/root/x", R.DESTRUCTIVE),
        ("pg_basebackup -D ./bk -T /pgts=/etc/evil", R.DESTRUCTIVE),
        ("mongodump --archive=/root/.bashrc", R.DESTRUCTIVE),
        ("etcdctl snapshot restore snap.db --data-dir /etc/x", R.DESTRUCTIVE),
        ("samtools index a.bam /root/.bashrc", R.DESTRUCTIVE),
        ("samtools merge /root/.bashrc a.bam b.bam", R.DESTRUCTIVE),
        ("samtools view -U /root/.bashrc a.bam", R.DESTRUCTIVE),
        ("samtools sort -T /etc/x a.bam", R.DESTRUCTIVE),
        ("bcftools index /etc/x.vcf.gz", R.DESTRUCTIVE),
        ("ffmpeg -i in.mp4 file:/root/.bashrc", R.DESTRUCTIVE),
        ("ffmpeg -i in.mp4 -f tee -map 0 'out.mkv|/root/.bashrc'", R.DESTRUCTIVE),
        ("ffmpeg -i in.mp4 -vf metadata=mode=print:file=/root/.bashrc out.mp4", R.DESTRUCTIVE),
        ("ffmpeg -i a.mp4 -i b.mp4 -lavfi ssim=f=/etc/x -f null -", R.DESTRUCTIVE),
        ("ffmpeg -i in.wav -af ladspa=file=/tmp/evil.so:plugin=x out.wav", R.DESTRUCTIVE),
        ("magick in.png txt:/root/.bashrc", R.DESTRUCTIVE),
        ("convert in.png PNG:/root/.bashrc", R.DESTRUCTIVE),
        ("magick in.png -format x info:/root/.bashrc", R.DESTRUCTIVE),
        ("tailscale metrics write /etc/x", R.DESTRUCTIVE),
        ("helmfile template --output-dir /etc/x", R.DESTRUCTIVE),
        ("dvc plots show -o /root/x", R.DESTRUCTIVE),
        ("mise config generate -o /etc/mise.toml", R.DESTRUCTIVE),
        # code from outside the workspace, or a program run
        ("gpg --homedir /tmp/h -k", R.DESTRUCTIVE),
        ("helmfile -f /tmp/other/helmfile.yaml list", R.DESTRUCTIVE),
        ("prowler aws -x /tmp/checks", R.DESTRUCTIVE),
        ("prowler aws --checks-folder /tmp/checks", R.DESTRUCTIVE),
        ("bundletool build-apks --bundle a.aab --output out.apks --aapt2=/tmp/evil", R.DESTRUCTIVE),
        ("bundletool install-apks --apks x.apks --adb=/tmp/evil", R.DESTRUCTIVE),
        ("pod spec edit x", R.DESTRUCTIVE),
        ("pod spec lint /tmp/x.podspec", R.DESTRUCTIVE),
        ("fossil diff --command 'touch x'", R.DESTRUCTIVE),
        ("fossil diff --tk", R.DESTRUCTIVE),
        ("hg pull -e 'touch x' ssh://host/repo", R.DESTRUCTIVE),
        ("hg identify --ssh 'touch x' ssh://host/repo", R.DESTRUCTIVE),
        ("printf 'touch x\\nexit\\n' | asciinema rec out.cast", R.DESTRUCTIVE),
        ("pixi config edit", R.DESTRUCTIVE),
        # remote deletions and changes graded as reads
        ("vercel certs rm cert_123", R.DESTRUCTIVE),
        ("vercel alias rm example.com", R.DESTRUCTIVE),
        ("vercel teams invite a@example.com", R.SYSTEM),
        ("netlify api deleteSite --data x", R.DESTRUCTIVE),
        ("netlify api --data x deleteSite", R.DESTRUCTIVE),
        ("netlify api purgeCache", R.DESTRUCTIVE),
        ("netlify api createSite", R.SYSTEM),
        ("hub release delete v1.0", R.DESTRUCTIVE),
        ("hub issue update 1 --state closed", R.SYSTEM),
        ("dart pub cache clean", R.DESTRUCTIVE),
        ("flutter pub cache clean", R.DESTRUCTIVE),
        ("gem check --doctor", R.DESTRUCTIVE),
        # this machine's state changed
        ("flutter emulators --launch pixel", R.SYSTEM),
        ("flutter emulators --create", R.SYSTEM),
        ("btrfs filesystem label /mnt newlabel", R.SYSTEM),
        ("semanage dontaudit off", R.SYSTEM),
        ("vagrant global-status --prune", R.SYSTEM),
        ("mise settings set experimental true", R.SYSTEM),
        ("mise reshim", R.SYSTEM),
        # the network reached
        ("uv pip list --outdated", R.NETWORK),
        ("uv pip tree --outdated", R.NETWORK),
        ("uv format", R.NETWORK),
        ("conda search numpy", R.NETWORK),
        ("conda notices", R.NETWORK),
        ("mamba repoquery depends numpy", R.NETWORK),
        ("gem list -r rails", R.NETWORK),
        ("gem specification --remote rails", R.NETWORK),
        ("composer outdated --no-plugins", R.NETWORK),
        ("composer show --latest --no-plugins", R.NETWORK),
        ("composer show -a --no-plugins", R.NETWORK),
        ("composer diagnose --no-plugins", R.NETWORK),
        ("deno info npm:express", R.NETWORK),
        ("deno info main.ts", R.NETWORK),
        ("asdf latest nodejs", R.NETWORK),
        ("mise latest node", R.NETWORK),
        ("pixi search numpy", R.NETWORK),
        ("pixi list", R.NETWORK),
        ("vagrant version", R.NETWORK),
        ("tailscale netcheck", R.NETWORK),
        ("ansible-galaxy role search nginx", R.NETWORK),
        ("ansible-galaxy role info geerlingguy.nginx", R.NETWORK),
        ("hg identify default", R.NETWORK),
        ("hg summary --remote", R.NETWORK),
        ("svn status -u", R.NETWORK),
        ("svn st --show-updates", R.NETWORK),
        ("dvc list git@github.com:iterative/example.git", R.NETWORK),
        ("dvc status -r myremote", R.NETWORK),
        # secrets printed
        ("hg config", R.NETWORK),
        ("hg showconfig", R.NETWORK),
        ("hg paths", R.NETWORK),
        ("jj git remote list", R.NETWORK),
        ("composer config --list", R.NETWORK),
        ("composer config github-oauth.github.com", R.NETWORK),
        ("composer config http-basic.repo.example.com", R.NETWORK),
        ("btrfs send /mnt/snap", R.NETWORK),
        ("virsh dumpxml vm --security-info", R.NETWORK),
        ("7z a x.7z -ir!/root/.ssh/*", R.NETWORK),
        # compilers' -f options naming files written or programs run
        ("gcc -fdump-tree-all=/root/.bashrc x.c", R.DESTRUCTIVE),
        ("gcc -fopt-info-all=/root/.bashrc x.c", R.DESTRUCTIVE),
        ("gcc -fprofile-note=/etc/x x.c", R.DESTRUCTIVE),
        ("gcc -fdiagnostics-add-output=sarif:file=/root/.bashrc x.c", R.DESTRUCTIVE),
        ("gcc -fmodules-ts '-fmodule-mapper=|/tmp/evil' x.cc", R.DESTRUCTIVE),
        ("clang -fmodules-cache-path=/etc/x x.c", R.DESTRUCTIVE),
        ("clang -ftime-trace=/root/.bashrc x.c", R.DESTRUCTIVE),
        ("clang -foptimization-record-file=/root/.bashrc x.c", R.DESTRUCTIVE),
        ("clang -fcrash-diagnostics-dir=/etc x.c", R.DESTRUCTIVE),
        ("clang -fproc-stat-report=/etc/x x.c", R.DESTRUCTIVE),
        # filtergraphs read from files, or given as a lavfi input
        ("ffmpeg -i in.mp4 -/vf graph.txt out.mp4", R.DESTRUCTIVE),
        ("ffmpeg -i in.mp4 -filter_complex_script graph.txt out.mp4", R.DESTRUCTIVE),
        ("ffmpeg -f lavfi -i sine,ametadata=mode=print:file=/root/.bashrc -t 1 out.wav", R.DESTRUCTIVE),
        # a repository, log or bundle outside the workspace
        ("jj -R /tmp/other log", R.DESTRUCTIVE),
        ("jj --repository=/tmp/other log", R.DESTRUCTIVE),
        ("rar a -ilog/root/.bashrc x.rar a", R.DESTRUCTIVE),
        ("xcrun stapler staple /Applications/X.app", R.SYSTEM),
        ("VBoxManage metrics setup", R.SYSTEM),
        ("fly version upgrade", R.SYSTEM),
        ("cloc --extract-with='touch x' a.tar", R.DESTRUCTIVE),
        ("cloc --vcs='touch x'", R.DESTRUCTIVE),
        ("scc --format-multi 'json:/root/x'", R.DESTRUCTIVE),
        ("ack --ackrc=/tmp/x foo", R.DESTRUCTIVE),
        ("htmlhint -R /tmp/x", R.DESTRUCTIVE),
        ("dprint fmt", R.NETWORK),
        ("dprint check", R.NETWORK),
        ("rustc --emit=link=/root/.bashrc x.rs", R.DESTRUCTIVE),
        ("rustc --emit link=/root/.bashrc x.rs", R.DESTRUCTIVE),
        ("rustc --extern foo=/tmp/libfoo.so x.rs", R.DESTRUCTIVE),
        ("hugo new site /root/x", R.DESTRUCTIVE),
        ("hugo --config /tmp/x.toml", R.DESTRUCTIVE),
        ("pyinstaller /tmp/x.spec", R.DESTRUCTIVE),
        ("stack build --copy-bins --local-bin-path /etc", R.DESTRUCTIVE),
        ("dotnet dev-certs https --export-path /root/.bashrc", R.DESTRUCTIVE),
    ],
)
def test_hostile_form_is_graded_high_enough(ws: Path, command: str, least: RiskLevel) -> None:
    assert graded(command, ws)[0] >= least, command


# -- everyday: the grade is kept --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "want"),
    [
        ("cosign generate-key-pair", R.WORKSPACE_WRITE),
        ("cosign generate-key-pair --output-key-prefix keys/release", R.WORKSPACE_WRITE),
        ("k3d config init -o k3d.yaml", R.WORKSPACE_WRITE),
        ("ssh-keygen -l -f key.pub", R.READ_ONLY),
        ("pg_basebackup -D ./bk", R.NETWORK),
        ("mongodump --archive=dump.gz --gzip", R.NETWORK),
        ("mongodump --archive", R.NETWORK),
        ("etcdctl snapshot restore snap.db --data-dir ./member", R.WORKSPACE_WRITE),
        ("samtools index a.bam", R.WORKSPACE_WRITE),
        ("samtools view -b -o out.bam in.bam", R.WORKSPACE_WRITE),
        ("samtools flagstat a.bam", R.READ_ONLY),
        ("bcftools view -h a.vcf.gz", R.READ_ONLY),
        ("ffmpeg -i in.mp4 -vf scale=640:-1 out.mp4", R.WORKSPACE_WRITE),
        ("ffmpeg -i in.mp4 -vf metadata=mode=print:file=meta.txt out.mp4", R.WORKSPACE_WRITE),
        ("ffmpeg -i in.mp4 file:out.mp4", R.WORKSPACE_WRITE),
        ("magick in.png png:out.png", R.WORKSPACE_WRITE),
        ("tailscale metrics print", R.READ_ONLY),
        ("tailscale status", R.READ_ONLY),
        ("helmfile template --output-dir rendered", R.NETWORK),
        ("dvc plots show", R.WORKSPACE_WRITE),
        ("mise config ls", R.READ_ONLY),
        ("mise ls", R.READ_ONLY),
        ("gpg -k", R.READ_ONLY),
        ("bundletool build-apks --bundle a.aab --output out.apks", R.WORKSPACE_WRITE),
        ("fossil diff", R.READ_ONLY),
        ("fossil branch list", R.READ_ONLY),
        ("hg pull", R.NETWORK),
        ("hg identify", R.READ_ONLY),
        ("hg id -r tip", R.READ_ONLY),
        ("hg summary", R.READ_ONLY),
        ("asciinema cat demo.cast", R.READ_ONLY),
        ("asciinema play demo.cast", R.READ_ONLY),
        ("vercel certs ls", R.NETWORK),
        ("vercel alias set my-deploy.vercel.app example.com", R.SYSTEM),
        ("netlify api listSites", R.NETWORK),
        ("netlify api getSite --data x", R.NETWORK),
        ("hub release list", R.NETWORK),
        ("dart pub cache repair", R.NETWORK),
        ("gem list", R.READ_ONLY),
        ("gem check", R.READ_ONLY),
        ("flutter emulators", R.READ_ONLY),
        ("btrfs filesystem show", R.READ_ONLY),
        ("btrfs send -f snap.btrfs /mnt/snap", R.WORKSPACE_WRITE),
        ("semanage boolean -l", R.READ_ONLY),
        ("vagrant global-status", R.READ_ONLY),
        ("uv pip list", R.READ_ONLY),
        ("conda list", R.READ_ONLY),
        ("composer show --no-plugins", R.READ_ONLY),
        ("composer config process-timeout 600", R.WORKSPACE_WRITE),
        ("deno info", R.READ_ONLY),
        ("asdf current", R.READ_ONLY),
        ("pixi info", R.READ_ONLY),
        ("ansible-galaxy collection list", R.READ_ONLY),
        ("ansible-galaxy role info --offline geerlingguy.nginx", R.READ_ONLY),
        ("svn status", R.READ_ONLY),
        ("dvc status", R.READ_ONLY),
        ("jj git remote add origin git@example.com:r.git", R.WORKSPACE_WRITE),
        ("virsh dumpxml vm", R.READ_ONLY),
        ("7z a x.7z -ir!src/*.c", R.WORKSPACE_WRITE),
        ("gcc -O2 -fPIC -fdump-tree-all -c x.c", R.WORKSPACE_WRITE),
        ("gcc -fopt-info-vec -O3 x.c", R.WORKSPACE_WRITE),
        ("gcc -fopt-info x.c", R.WORKSPACE_WRITE),
        ("gcc -fdump-tree-all=dump.txt x.c", R.WORKSPACE_WRITE),
        ("clang -ftime-trace x.c", R.WORKSPACE_WRITE),
        ("clang -fmodules-cache-path=build/mc x.c", R.WORKSPACE_WRITE),
        ("gcc -fno-omit-frame-pointer -fsanitize=address -g x.c -o x", R.WORKSPACE_WRITE),
        ("ffmpeg -f lavfi -i testsrc=duration=1 out.mp4", R.WORKSPACE_WRITE),
        ('ffmpeg -i "$f" out.mp4', R.WORKSPACE_WRITE),
        ("jj log", R.READ_ONLY),
        ("jj -R . log", R.READ_ONLY),
        ("rar a -ilogerr.log x.rar a", R.WORKSPACE_WRITE),
        ("xcrun stapler staple build/X.app", R.WORKSPACE_WRITE),
        ("VBoxManage metrics query", R.READ_ONLY),
        ("fly version", R.READ_ONLY),
        ("cloc --vcs=git", R.READ_ONLY),
        ("cloc .", R.READ_ONLY),
        ("scc --format-multi 'tabular:stdout,json:out.json'", R.WORKSPACE_WRITE),
        ("ack foo", R.READ_ONLY),
        ("htmlhint index.html", R.READ_ONLY),
        ("bandit -r .", R.READ_ONLY),
        ("dprint init", R.WORKSPACE_WRITE),
        ("rustc --emit=link,dep-info x.rs", R.WORKSPACE_WRITE),
        ("rustc x.rs", R.WORKSPACE_WRITE),
        ("hugo new site mysite", R.WORKSPACE_WRITE),
        ("hugo new content posts/a.md", R.WORKSPACE_WRITE),
        ("hugo --config hugo.toml", R.WORKSPACE_WRITE),
        ("pyinstaller --onefile app.py", R.WORKSPACE_WRITE),
        ("stack build", R.WORKSPACE_WRITE),
    ],
)
def test_everyday_form_keeps_its_grade(ws: Path, command: str, want: RiskLevel) -> None:
    assert graded(command, ws)[0] is want, command


# -- Vagrant's Vagrantfile lookup path --------------------------------------------------------------------------------
def test_vagrant_loads_a_vagrantfile_found_above_the_workspace(tmp_path: Path) -> None:
    ws = project(tmp_path, {"README.md": "x\n"})
    (tmp_path / "Vagrantfile").write_text('system("touch ran")\n')
    assert graded("vagrant status", ws)[0] is R.DESTRUCTIVE
    assert graded("vagrant up", ws)[0] is R.DESTRUCTIVE


def test_vagrant_with_the_workspace_vagrantfile_keeps_its_grade(tmp_path: Path) -> None:
    ws = project(tmp_path, {"Vagrantfile": 'Vagrant.configure("2") do |c| end\n'})
    (tmp_path / "Vagrantfile").write_text('system("touch ran")\n')
    assert graded("vagrant status", ws)[0] is R.WORKSPACE_WRITE
    assert graded("vagrant version", ws)[0] is R.NETWORK


def test_dprint_configuration_written_first_is_destructive(ws: Path) -> None:
    command = 'echo \'{"plugins": ["https://x.example/p.json@0"]}\' > dprint.json && dprint check'
    assert graded(command, ws)[0] is R.DESTRUCTIVE
    assert graded("dprint check", ws)[0] is R.NETWORK
