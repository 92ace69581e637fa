// FlyBot local chat: a small Slack-like page over the emulation's page API (bot/localchat/emulator.py).
// Security: message and view content is only ever put in the DOM through textContent / DOM nodes, never innerHTML.
"use strict";

(() => {
  const API = "local/slack/page/";
  const DEFAULT_VIEWER = "U0OWNER01";
  const DEFAULT_CHANNEL = "C0APPROVE";
  const HOME = "home";
  // This page load's id, sent with every action and state poll: a modal shows only in the page that opened it, so
  // one left open does not come back on a reload or in another browser (a Slack modal lives in its client).
  const CLIENT = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  // The page credential (bot/localchat/access.py): got once for the single-use login key in the address (?key=...), kept in
  // this origin's sessionStorage (scheme, host and port: no other server on this host can read it), and sent in
  // the X-FlyBot-Session header on every call. Never a cookie: a cookie would reach every port of the host.
  const SESSION = "flybot.session";
  const LOGIN = "local/slack/login";
  const loginKey = new URLSearchParams(location.search).get("key");
  // The key leaves the address bar and the history at once; the exchange below still has it.
  if (loginKey !== null) history.replaceState(null, "", location.pathname);

  async function logIn() {
    if (loginKey === null) return;
    try {
      const response = await fetch(LOGIN, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key: loginKey }),
        cache: "no-store",
      });
      const data = await response.json();
      if (response.ok && typeof data.session === "string") sessionStorage.setItem(SESSION, data.session);
    } catch (_e) {
      // not logged in: the page says so (401 from the state route)
    }
  }

  const credential = () => ({ "X-FlyBot-Session": sessionStorage.getItem(SESSION) || "" });

  const EMOJI = {
    warning: "⚠️", package: "📦", white_check_mark: "✅", heavy_check_mark: "✔️", x: "❌", hourglass: "⌛",
    hourglass_flowing_sand: "⏳", lock: "🔒", unlock: "🔓", closed_lock_with_key: "🔐", key: "🔑", no_entry: "⛔",
    no_entry_sign: "🚫", stop_sign: "🛑", octagonal_sign: "🛑", information_source: "ℹ️", rocket: "🚀",
    robot_face: "🤖", bust_in_silhouette: "👤", alarm_clock: "⏰", stopwatch: "⏱️", timer_clock: "⏲️", fire: "🔥",
    eyes: "👀", thumbsup: "👍", "+1": "👍", thumbsdown: "👎", "-1": "👎", wave: "👋", memo: "📝", mag: "🔍",
    shield: "🛡️", red_circle: "🔴", large_green_circle: "🟢", large_yellow_circle: "🟡", large_orange_circle: "🟠",
    white_circle: "⚪", black_circle: "⚫", question: "❓", exclamation: "❗", heavy_exclamation_mark: "❗",
    bangbang: "‼️", skull: "💀", boom: "💥", zap: "⚡", gear: "⚙️", wrench: "🔧", hammer_and_wrench: "🛠️",
    computer: "💻", desktop_computer: "🖥️", file_folder: "📁", open_file_folder: "📂", page_facing_up: "📄",
    link: "🔗", arrows_counterclockwise: "🔄", leftwards_arrow_with_hook: "↩️", speech_balloon: "💬", bell: "🔔",
    no_bell: "🔕", tada: "🎉", sparkles: "✨", ok: "🆗", house: "🏠", clipboard: "📋", pushpin: "📌",
    heavy_multiplication_x: "✖️", heavy_minus_sign: "➖", arrow_right: "➡️", construction: "🚧",
    rotating_light: "🚨", ghost: "👻", whale: "🐳", docker: "🐳", lock_with_ink_pen: "🔏", crossed_swords: "⚔️",
  };

  // -- state ------------------------------------------------------------------------------------------
  let viewer = localStorage.getItem("flybot.viewer") || DEFAULT_VIEWER;
  let selected = localStorage.getItem("flybot.channel") || DEFAULT_CHANNEL;
  let state = null;
  let version = -1;
  let generation = 0;       // bumped when the viewer changes: stale poll answers are dropped
  let abort = null;
  let lastSeen = null;      // channel id -> newest ts key seen, for unread dots (per viewer)
  const inFlight = new Set();   // "ts|action_id" of buttons whose click is on its way
  const clickErrors = new Map(); // ts -> error line under that message

  const $ = (id) => document.getElementById(id);

  // Hidden and direction-changing characters (bidi controls, zero-width, tags, controls other than newline/tab,
  // odd spaces) are shown as ⟨U+202E⟩, as FlyBot's cards do (bot/risk/hidden.py), so text reads as what it is.
  // A zero-width joiner between two pictographs (🧑‍💻) is part of the emoji and stays.
  const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2000-\u200c\u200e\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff9-\ufffb]|(^|[\u0000-\u007f])[\ufe0e\ufe0f]|[\u{16fe4}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]|(?<![\p{Extended_Pictographic}\ufe0f])\u200d|\u200d(?!\p{Extended_Pictographic})/gu;
  const reveal = (value) => String(value).replace(HIDDEN, (m, before) => {
    const lead = before === undefined ? "" : before;
    const ch = m.slice(lead.length);
    return lead + `\u27e8U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}\u27e9`;
  });
  const textNode = (value) => document.createTextNode(reveal(value));

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = reveal(value);
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, String(value));
      else node[key] = value;
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : textNode(child));
    }
    return node;
  }

  const tsKey = (ts) => {
    const [secs, seq] = String(ts || "0.0").split(".");
    return [Number(secs) || 0, Number(seq) || 0];
  };
  const tsAfter = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

  function userName(id) {
    const user = state && state.users.find((u) => u.id === id);
    return user ? user.real_name || user.name : id;
  }

  function channelName(id) {
    const channel = state && state.channels.find((c) => c.id === id);
    return channel ? channel.name : id;
  }

  function emoji(name) {
    return Object.prototype.hasOwnProperty.call(EMOJI, name) ? EMOJI[name] : null;
  }

  // mrkdwn text is shown through here (and DOM append): hidden characters made visible too.
  function decodeEntities(text) {
    return reveal(String(text).replace(/&(lt|gt|amp);/g, (_m, name) => ({ lt: "<", gt: ">", amp: "&" })[name]));
  }

  // -- mrkdwn -----------------------------------------------------------------------------------------
  // FlyBot's own simple mrkdwn: *bold*, _italic_, ~strike~, `code`, ```pre```, <@U>, <#C|name>, <url|text>, :emoji:.
  function mrkdwn(text) {
    const frag = document.createDocumentFragment();
    const source = String(text || "");
    const pre = /```([\s\S]*?)```/g;
    let last = 0;
    for (let m; (m = pre.exec(source));) {
      codeSpans(source.slice(last, m.index), frag);
      frag.append(el("pre", { class: "pre", text: decodeEntities(m[1].replace(/^\n/, "")) }));
      last = pre.lastIndex;
    }
    codeSpans(source.slice(last), frag);
    return frag;
  }

  function codeSpans(text, parent) {
    const code = /`([^`\n]+)`/g;
    let last = 0;
    for (let m; (m = code.exec(text));) {
      inline(text.slice(last, m.index), parent);
      parent.append(el("code", { text: decodeEntities(m[1]) }));
      last = code.lastIndex;
    }
    inline(text.slice(last), parent);
  }

  const INLINE = new RegExp(
    [
      "<([^<>\\n]+)>",
      "(?<![\\w*])\\*(?!\\s)([^*\\n]+?)(?<!\\s)\\*(?![\\w*])",
      "(?<![\\w])_(?!\\s)([^_\\n]+?)(?<!\\s)_(?![\\w])",
      "(?<![\\w~])~(?!\\s)([^~\\n]+?)(?<!\\s)~(?![\\w~])",
      ":([a-z0-9_+\\-]+):",
    ].join("|"),
    "g",
  );

  function inline(text, parent) {
    if (!text) return;
    const re = new RegExp(INLINE.source, "g");
    let last = 0;
    for (let m; (m = re.exec(text));) {
      let node = null;
      if (m[1] !== undefined) node = angle(m[1]);
      else if (m[2] !== undefined) node = nested("strong", m[2]);
      else if (m[3] !== undefined) node = nested("em", m[3]);
      else if (m[4] !== undefined) node = nested("s", m[4]);
      else if (m[5] !== undefined && emoji(m[5])) node = el("span", { class: "emoji", title: `:${m[5]}:`, text: emoji(m[5]) });
      if (node === null) continue;
      parent.append(decodeEntities(text.slice(last, m.index)));
      parent.append(node);
      last = re.lastIndex;
    }
    parent.append(decodeEntities(text.slice(last)));
  }

  function nested(tag, text) {
    const node = el(tag);
    inline(text, node);
    return node;
  }

  function angle(body) {
    const bar = body.indexOf("|");
    const target = bar >= 0 ? body.slice(0, bar) : body;
    const label = bar >= 0 ? decodeEntities(body.slice(bar + 1)) : "";
    if (target.startsWith("@")) return el("span", { class: "mention", text: "@" + (label || userName(target.slice(1))) });
    if (target.startsWith("#")) return el("span", { class: "mention", text: "#" + (label || channelName(target.slice(1))) });
    if (target.startsWith("!")) {
      const [special, id] = target.slice(1).split("^");
      const group = special === "subteam" && state && (state.usergroups || []).find((g) => g.id === id);
      return el("span", { class: "mention", text: label || "@" + (group ? group.handle : special) });
    }
    return link(decodeEntities(target), label);
  }

  function link(url, text) {
    const safe = /^(https?:|mailto:)/i.test(url);
    const shown = text && text !== url ? `${text} (${url})` : url;
    if (!safe) return el("span", { class: "link", text: shown });
    return el("a", { class: "link", href: url, target: "_blank", rel: "noopener noreferrer", text: shown });
  }

  function textObject(obj, tag = "span") {
    const node = el(tag);
    if (!obj) return node;
    if (obj.type === "mrkdwn") node.append(mrkdwn(obj.text));
    else if (obj.emoji === false) node.textContent = reveal(obj.text || "");
    else node.textContent = reveal(obj.text || "").replace(/:([a-z0-9_+\-]+):/g, (m, name) => emoji(name) || m);
    return node;
  }

  // -- rich text --------------------------------------------------------------------------------------
  function richElements(elements, parent) {
    for (const item of elements || []) {
      const style = item.style || {};
      let node;
      switch (item.type) {
        case "text":
          node = textNode(item.text || "");
          break;
        case "user":
          node = el("span", { class: "mention", text: "@" + userName(item.user_id) });
          break;
        case "usergroup":
          node = el("span", { class: "mention", text: "@" + (item.usergroup_id || "group") });
          break;
        case "channel":
          node = el("span", { class: "mention", text: "#" + channelName(item.channel_id) });
          break;
        case "broadcast":
          node = el("span", { class: "mention", text: "@" + (item.range || "here") });
          break;
        case "link":
          node = link(String(item.url || ""), item.text || "");
          break;
        case "emoji": {
          let glyph = emoji(item.name);
          if (!glyph && item.unicode) {
            try {
              glyph = String.fromCodePoint(...item.unicode.split("-").map((h) => parseInt(h, 16)));
            } catch (_e) { glyph = null; }
          }
          node = el("span", { class: "emoji", title: `:${item.name}:`, text: glyph || `:${item.name}:` });
          break;
        }
        case "date":
          node = textNode(item.fallback || new Date((item.timestamp || 0) * 1000).toISOString());
          break;
        default:
          node = textNode(item.text || "");
      }
      if (style.code) node = el("code", {}, node);
      if (style.strike) node = el("s", {}, node);
      if (style.italic) node = el("em", {}, node);
      if (style.bold) node = el("strong", {}, node);
      parent.append(node);
    }
  }

  function richBlock(element) {
    switch (element.type) {
      case "rich_text_section": {
        const node = el("div", { class: "rt-section" });
        richElements(element.elements, node);
        return node;
      }
      case "rich_text_preformatted": {
        const node = el("pre", { class: "pre" });
        richElements(element.elements, node);
        return node;
      }
      case "rich_text_quote": {
        const node = el("blockquote", { class: "quote" });
        richElements(element.elements, node);
        return node;
      }
      case "rich_text_list": {
        const ordered = element.style === "ordered";
        const list = el(ordered ? "ol" : "ul", { class: "rt-list" });
        if (ordered && element.offset) list.start = Number(element.offset) + 1;
        list.style.marginLeft = `${(Number(element.indent) || 0) * 1.5}em`;
        if (element.border) list.classList.add("quote");
        for (const item of element.elements || []) {
          const li = el("li");
          if (item.type === "rich_text_section") richElements(item.elements, li);
          else li.append(richBlock(item));
          list.append(li);
        }
        return list;
      }
      default:
        return el("div", { class: "unsupported", text: `[unsupported rich text: ${element.type}]` });
    }
  }

  // -- blocks -----------------------------------------------------------------------------------------
  // ctx: {message?: {channel, ts}, viewId?: string} tells where a button click goes.
  function renderBlocks(blocks, ctx) {
    const wrap = el("div", { class: "blocks" });
    for (const block of blocks || []) wrap.append(renderBlock(block, ctx));
    return wrap;
  }

  function renderBlock(block, ctx) {
    const attrs = { class: `block block-${block.type}`, "data-block-id": block.block_id };
    switch (block.type) {
      case "header":
        return el("div", attrs, textObject(block.text, "h3"));
      case "section": {
        const node = el("div", attrs);
        const body = el("div", { class: "section-body" });
        if (block.text) body.append(textObject(block.text, "div"));
        if (block.fields && block.fields.length) {
          const fields = el("div", { class: "fields" });
          for (const field of block.fields) fields.append(textObject(field, "div"));
          body.append(fields);
        }
        node.append(body);
        if (block.accessory) node.append(el("div", { class: "accessory" }, renderElement(block.accessory, block, ctx)));
        return node;
      }
      case "context": {
        const node = el("div", attrs);
        for (const item of block.elements || []) {
          if (item.type === "image") node.append(el("span", { class: "ctx-image", text: item.alt_text || "" }));
          else node.append(textObject(item, "span"));
        }
        return node;
      }
      case "divider":
        return el("hr", attrs);
      case "actions": {
        const node = el("div", attrs);
        for (const item of block.elements || []) node.append(renderElement(item, block, ctx));
        return node;
      }
      case "rich_text": {
        const node = el("div", attrs);
        for (const item of block.elements || []) node.append(richBlock(item));
        return node;
      }
      case "input":
        return renderInput(block, ctx);
      case "image":
        return el("div", attrs, el("span", { class: "muted", text: `[image: ${block.alt_text || ""}]` }));
      default:
        return el("div", { class: "unsupported", text: `[unsupported block: ${block.type}]` });
    }
  }

  function renderElement(item, block, ctx) {
    if (item.type !== "button") return el("span", { class: "unsupported", text: `[${item.type}]` });
    const key = `${ctx.message ? ctx.message.ts : ctx.viewId}|${item.action_id}`;
    const button = el("button", {
      type: "button",
      class: `btn ${item.style ? "btn-" + item.style : ""}`,
      "data-action-id": item.action_id,
      "data-block-id": block.block_id,
      "data-value": item.value,
      disabled: inFlight.has(key),
    }, textObject(item.text));
    button.addEventListener("click", () => click(button, key, item, block, ctx));
    return button;
  }

  async function click(button, key, item, block, ctx) {
    if (inFlight.has(key)) return;
    inFlight.add(key);
    button.disabled = true;
    const errorKey = ctx.message ? ctx.message.ts : ctx.viewId;
    clickErrors.delete(errorKey);
    const body = { user: viewer, action_id: item.action_id || "", block_id: block.block_id || "", value: item.value || "" };
    if (ctx.message) Object.assign(body, { channel: ctx.message.channel, ts: ctx.message.ts });
    else body.view_id = ctx.viewId;
    const mine = generation;
    const answer = await post("click", body);
    if (mine !== generation) return; // the viewer changed meanwhile
    inFlight.delete(key);
    button.disabled = false;
    if (!answer.ok) clickErrors.set(errorKey, answerError("The click was not delivered", answer));
    render(); // the pane may have been redrawn while the click was in flight
  }

  function answerError(what, answer) {
    const detail = answer.error || (answer.body ? String(answer.body).slice(0, 200) : "");
    return `${what}${answer.status ? ` (HTTP ${answer.status})` : ""}${detail ? ": " + detail : ""}`;
  }

  async function post(path, body) {
    try {
      const response = await fetch(API + path, {
        method: "POST", headers: { "Content-Type": "application/json", ...credential() },
        body: JSON.stringify({ ...body, client: CLIENT }),
      });
      let data = {};
      try { data = await response.json(); } catch (_e) { data = {}; }
      if (!response.ok && data.ok === undefined) data.ok = false;
      if (data.status === undefined && !response.ok) data.status = response.status;
      return data;
    } catch (e) {
      return { ok: false, error: `network error (${e.message || e})` };
    }
  }

  // -- messages ---------------------------------------------------------------------------------------
  function clock(ts) {
    const date = new Date(tsKey(ts)[0] * 1000);
    return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function renderMessage(message) {
    const node = el("div", {
      class: `message${message.ephemeral ? " ephemeral" : ""}${message.bot_id ? " from-bot" : ""}`,
      "data-ts": message.ts,
    });
    const who = message.bot_id ? "FlyBot" : userName(message.user);
    const head = el("div", { class: "msg-head" },
      el("span", { class: "avatar", text: message.bot_id ? "🪰" : who.slice(0, 1).toUpperCase(), "aria-hidden": "true" }),
      el("span", { class: "sender", text: who }),
      message.bot_id ? el("span", { class: "badge", text: "APP" }) : null,
      el("span", { class: "time", text: clock(message.ts) }),
    );
    node.append(head);
    if (message.ephemeral) node.append(el("div", { class: "only-you", text: "👁 Only visible to you" }));
    if (message.thread_ts) {
      node.classList.add("reply");
      node.append(el("div", { class: "in-thread", "data-thread-ts": message.thread_ts, text: "↳ reply in the thread of the message above" }));
    }
    const ctx = { message: { channel: message.channel, ts: message.ts } };
    const body = el("div", { class: "msg-body" });
    if (message.blocks && message.blocks.length) body.append(renderBlocks(message.blocks, ctx));
    else body.append(el("div", { class: "msg-text" }, mrkdwn(message.text)));
    if (message.edited) body.append(el("span", { class: "edited", text: "(edited)" }));
    node.append(body);
    const error = clickErrors.get(message.ts);
    node.append(el("div", { class: "error-line", role: "alert", "data-error-for": message.ts, hidden: !error, text: error || "" }));
    return node;
  }

  // -- sidebar, viewer, panes -------------------------------------------------------------------------
  function renderViewer() {
    const select = $("viewer");
    const wanted = state.users.map((u) => `${u.id}:${u.real_name}`).join(",");
    if (select.dataset.users !== wanted) {
      select.replaceChildren(...state.users.map((u) => el("option", { value: u.id, text: u.real_name || u.name })));
      select.dataset.users = wanted;
    }
    select.value = viewer;
  }

  function channelLabel(channel) {
    return channel.is_im ? "FlyBot" : "#" + channel.name;
  }

  function renderSidebar() {
    const lists = { channels: [], dms: [] };
    for (const channel of state.channels) {
      const newest = state.messages.filter((m) => m.channel === channel.id).map((m) => tsKey(m.ts))
        .reduce((a, b) => (tsAfter(b, a) ? b : a), [0, 0]);
      const seen = lastSeen[channel.id] || [0, 0];
      const unread = channel.id !== selected && tsAfter(newest, seen);
      const a = el("a", {
        href: "#", "data-channel": channel.id, class: channel.id === selected ? "active" : "",
        title: channel.is_im ? `Direct messages between FlyBot and ${userName(channel.user)}` : channel.name,
      }, el("span", { class: "icon", text: channel.is_im ? "●" : "" }), channelLabel(channel),
      unread ? el("span", { class: "unread", "aria-label": "unread", text: "•" }) : null);
      a.addEventListener("click", (ev) => { ev.preventDefault(); select(channel.id); });
      lists[channel.is_im ? "dms" : "channels"].push(el("li", {}, a));
    }
    $("channels").replaceChildren(...lists.channels);
    $("dms").replaceChildren(...(lists.dms.length ? lists.dms : [el("li", { class: "muted small", text: "none yet" })]));
    $("home-link").classList.toggle("active", selected === HOME);
  }

  function select(channelId) {
    selected = channelId;
    localStorage.setItem("flybot.channel", channelId);
    if (channelId === HOME) homeOpened();
    render(true);
  }

  // Slack sends app_home_opened when a user opens the Home tab; FlyBot answers with views.publish. The emulation's
  // page/home_opened route delivers that event; if this server has no such route, the tab shows what was published.
  function homeOpened() {
    post("home_opened", { user: viewer, tab: "home" });
  }

  function renderPane(scrollToEnd) {
    const messages = $("messages");
    const home = $("home");
    const composer = $("composer");
    if (selected === HOME) {
      $("pane-title").replaceChildren(el("span", { text: "🏠 FlyBot Home" }));
      messages.hidden = true;
      composer.hidden = true;
      home.hidden = false;
      const view = state.home;
      const viewId = (view && view.id) || "VH" + viewer;
      const error = clickErrors.get(viewId);
      home.replaceChildren(
        view ? renderBlocks(view.blocks, { viewId }) : el("p", { class: "muted", text: "FlyBot has not published a Home tab for you." }),
        el("div", { class: "error-line", role: "alert", hidden: !error, text: error || "" }),
      );
      return;
    }
    messages.hidden = false;
    composer.hidden = false;
    home.hidden = true;
    const channel = state.channels.find((c) => c.id === selected);
    $("pane-title").replaceChildren(
      el("span", { text: channel.is_im ? `FlyBot — direct messages with ${userName(channel.user)}` : "#" + channel.name }),
    );
    const atEnd = messages.scrollHeight - messages.scrollTop - messages.clientHeight < 40;
    const top = messages.scrollTop;
    const list = state.messages.filter((m) => m.channel === selected);
    messages.replaceChildren(...(list.length
      ? list.map(renderMessage)
      : [el("p", { class: "muted empty", text: "No messages here yet." })]));
    messages.scrollTop = scrollToEnd || atEnd ? messages.scrollHeight : top;
    for (const m of list) {
      const key = tsKey(m.ts);
      if (tsAfter(key, lastSeen[selected] || [0, 0])) lastSeen[selected] = key;
    }
  }

  function render(scrollToEnd = false) {
    if (!state) return;
    if (selected !== HOME && !state.channels.some((c) => c.id === selected)) {
      selected = state.channels.some((c) => c.id === DEFAULT_CHANNEL) ? DEFAULT_CHANNEL : state.channels[0].id;
      scrollToEnd = true;
    }
    renderViewer();
    renderPane(scrollToEnd);
    renderSidebar();
    renderModal();
  }

  // -- modal ------------------------------------------------------------------------------------------
  let shownModal = null; // {id, json, node}

  // Input blocks: plain_text_input, static_select, checkboxes and radio_buttons. Each field carries
  // data-input-block / data-action-id / data-kind; readField gives what view_submit sends for it (a string for text,
  // else Slack's state shape, which the emulation passes through as is).
  function renderInput(block, _ctx) {
    const element = block.element || {};
    const node = el("div", { class: "block block-input", "data-block-id": block.block_id });
    const id = `input-${block.block_id}-${element.action_id}`;
    const label = el("label", { htmlFor: id, class: "input-label" }, textObject(block.label));
    if (block.optional) label.append(el("span", { class: "muted", text: " (optional)" }));
    node.append(label);
    const field = inputField(element, id);
    if (field === null) {
      node.append(el("div", { class: "unsupported", text: `[unsupported input: ${element.type}]` }));
      return node;
    }
    Object.assign(field.dataset, { inputBlock: block.block_id, actionId: element.action_id, optional: block.optional ? "1" : "" });
    node.append(field);
    if (element.type === "plain_text_input" && element.max_length) {
      const counter = el("div", { class: "counter muted small" });
      const update = () => { counter.textContent = `${field.value.length}/${element.max_length}`; };
      field.addEventListener("input", update);
      field.addEventListener("change", update);
      update();
      node.append(counter);
    }
    if (block.hint) node.append(textObject(block.hint, "div"));
    node.append(el("div", { class: "field-error error-line", role: "alert", "data-error-for": block.block_id, hidden: true }));
    return node;
  }

  const optionText = (option) => (option && option.text ? option.text.text || "" : "");
  const sameOption = (a, b) => !!a && !!b && a.value === b.value;

  function inputField(element, id) {
    switch (element.type) {
      case "plain_text_input": {
        const field = el(element.multiline ? "textarea" : "input", {
          id, class: "text-input", "data-kind": "text",
          placeholder: element.placeholder ? element.placeholder.text : "",
          value: element.initial_value || "",
        });
        if (element.multiline) field.rows = 4;
        if (element.max_length) field.maxLength = element.max_length;
        if (element.min_length) field.minLength = element.min_length;
        return field;
      }
      case "static_select": {
        const field = el("select", { id, class: "text-input", "data-kind": "static_select" });
        field.options_ = [];
        const add = (parent, option) => {
          field.options_.push(option);
          parent.append(el("option", { value: String(field.options_.length - 1), text: optionText(option),
            selected: sameOption(option, element.initial_option) }));
        };
        if (!element.initial_option) {
          field.append(el("option", { value: "", text: element.placeholder ? element.placeholder.text : "Select an option" }));
        }
        for (const option of element.options || []) add(field, option);
        for (const group of element.option_groups || []) {
          const optgroup = el("optgroup", { label: optionText(group.label ? { text: group.label } : null) });
          for (const option of group.options || []) add(optgroup, option);
          field.append(optgroup);
        }
        return field;
      }
      case "checkboxes":
      case "radio_buttons": {
        const multi = element.type === "checkboxes";
        const field = el("div", { id, class: "choices", "data-kind": element.type, role: multi ? "group" : "radiogroup" });
        field.options_ = element.options || [];
        const initial = multi ? element.initial_options || [] : [element.initial_option].filter(Boolean);
        field.options_.forEach((option, index) => {
          const box = el("input", {
            type: multi ? "checkbox" : "radio", name: id, value: String(index),
            checked: initial.some((o) => sameOption(o, option)),
          });
          field.append(el("label", { class: "choice" }, box, textObject(option.text),
            option.description ? textObject(option.description, "div") : null));
        });
        return field;
      }
      default:
        return null;
    }
  }

  function readField(field) {
    switch (field.dataset.kind) {
      case "static_select": {
        const option = field.value === "" ? null : field.options_[Number(field.value)];
        return { type: "static_select", selected_option: option || null };
      }
      case "checkboxes":
      case "radio_buttons": {
        const chosen = [...field.querySelectorAll("input:checked")].map((box) => field.options_[Number(box.value)]);
        return field.dataset.kind === "checkboxes"
          ? { type: "checkboxes", selected_options: chosen }
          : { type: "radio_buttons", selected_option: chosen[0] || null };
      }
      default:
        return field.value;
    }
  }

  function writeField(field, value) {
    switch (field.dataset.kind) {
      case "static_select": {
        const index = field.options_.findIndex((o) => sameOption(o, value.selected_option));
        field.value = index < 0 ? "" : String(index);
        break;
      }
      case "checkboxes":
      case "radio_buttons": {
        const chosen = value.selected_options || [value.selected_option].filter(Boolean);
        for (const box of field.querySelectorAll("input")) {
          box.checked = chosen.some((o) => sameOption(o, field.options_[Number(box.value)]));
        }
        break;
      }
      default:
        field.value = value;
        field.dispatchEvent(new Event("change"));
    }
  }

  function isEmpty(value) {
    if (typeof value === "string") return !value.trim();
    if (value.selected_options) return value.selected_options.length === 0;
    return !value.selected_option;
  }

  function renderModal() {
    const root = $("modal-root");
    const modal = state.modal;
    if (!modal) {
      shownModal = null;
      root.replaceChildren();
      return;
    }
    const json = JSON.stringify(modal.view);
    if (!shownModal || shownModal.id !== modal.id || shownModal.json !== json) {
      const typed = shownModal && shownModal.id === modal.id ? collectValues(shownModal.node) : {};
      shownModal = { id: modal.id, json, node: buildModal(modal) };
      for (const [blockId, inputs] of Object.entries(typed)) {
        for (const [actionId, value] of Object.entries(inputs)) {
          const field = shownModal.node.querySelector(
            `[data-input-block="${CSS.escape(blockId)}"][data-action-id="${CSS.escape(actionId)}"]`);
          if (field) writeField(field, value);
        }
      }
      root.replaceChildren(shownModal.node);
      const first = shownModal.node.querySelector("[data-kind=text]");
      if (first) first.focus();
    }
    showErrors(shownModal.node, modal.errors || {});
  }

  function showErrors(node, errors) {
    for (const line of node.querySelectorAll(".field-error")) {
      const error = errors[line.dataset.errorFor];
      line.textContent = error || "";
      line.hidden = !error;
    }
  }

  function collectValues(node) {
    const values = {};
    for (const field of node.querySelectorAll("[data-input-block]")) {
      (values[field.dataset.inputBlock] ||= {})[field.dataset.actionId] = readField(field);
    }
    return values;
  }

  function buildModal(modal) {
    const view = modal.view;
    const titleId = `modal-title-${modal.id}`;
    const footerError = el("div", { class: "error-line", role: "alert", hidden: true });
    const close = async () => {
      closeButton.disabled = true;
      const answer = await post("view_close", { user: viewer, view_id: modal.id });
      closeButton.disabled = false;
      if (!answer.ok) { footerError.textContent = answerError("Could not close", answer); footerError.hidden = false; }
    };
    const closeButton = el("button", { type: "button", class: "btn", "data-action-id": "view_close" },
      textObject(view.close || { type: "plain_text", text: "Cancel" }));
    closeButton.addEventListener("click", close);
    const x = el("button", { type: "button", class: "icon-btn", "aria-label": "Close", text: "×" });
    x.addEventListener("click", close);
    const dialog = el("form", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId, "data-view-id": modal.id, noValidate: true },
      el("div", { class: "modal-head" }, textObject(view.title, "h2"), x),
      el("div", { class: "modal-body" }, renderBlocks(view.blocks, { viewId: modal.id })),
    );
    dialog.querySelector(".modal-head h2").id = titleId;
    const footer = el("div", { class: "modal-foot" }, footerError, closeButton);
    let submitButton = null;
    if (view.submit) {
      submitButton = el("button", { type: "submit", class: "btn btn-primary", "data-action-id": "view_submit" }, textObject(view.submit));
      footer.append(submitButton);
    }
    dialog.append(footer);
    dialog.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      if (!submitButton || submitButton.disabled) return;
      const local = {};
      for (const field of dialog.querySelectorAll("[data-input-block]")) {
        const value = readField(field);
        if (!field.dataset.optional && isEmpty(value)) local[field.dataset.inputBlock] = "Please complete this required field.";
        else if (field.dataset.kind === "text" && field.minLength > 0 && value && value.length < field.minLength) {
          local[field.dataset.inputBlock] = `Please enter at least ${field.minLength} characters.`;
        }
      }
      showErrors(dialog, local);
      if (Object.keys(local).length) return;
      submitButton.disabled = true;
      footerError.hidden = true;
      const answer = await post("view_submit", { user: viewer, view_id: modal.id, values: collectValues(dialog) });
      submitButton.disabled = false;
      if (!answer.ok) { footerError.textContent = answerError("Not submitted", answer); footerError.hidden = false; }
    });
    dialog.addEventListener("keydown", (ev) => { if (ev.key === "Escape") close(); });
    return el("div", { class: "backdrop" }, dialog);
  }

  // -- composer ---------------------------------------------------------------------------------------
  // As Slack's clients do, typed text is sent with &, < and > escaped (mentions are not typed as <@U...> here).
  const escapeText = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

  async function send() {
    const input = $("composer-input");
    const raw = input.value.trim();
    const error = $("composer-error");
    if (!raw || selected === HOME) return;
    error.hidden = true;
    let answer;
    if (raw.startsWith("/")) {
      const space = raw.search(/\s/);
      const command = space < 0 ? raw : raw.slice(0, space);
      const text = space < 0 ? "" : raw.slice(space + 1).trim();
      answer = await post("command", { user: viewer, channel: selected, command, text: escapeText(text) });
    } else {
      answer = await post("message", { user: viewer, channel: selected, text: escapeText(raw) });
    }
    if (answer.ok) input.value = "";
    else { error.textContent = answerError("Not delivered", answer); error.hidden = false; }
  }

  // -- live updates -----------------------------------------------------------------------------------
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function setConnected(ok, text = "reconnecting…") {
    $("conn").hidden = ok;
    $("conn").textContent = text;
  }

  async function poll() {
    let backoff = 500;
    for (;;) {
      const mine = generation;
      abort = new AbortController();
      try {
        const url = `${API}state?user=${encodeURIComponent(viewer)}&since=${version}&wait=25&client=${CLIENT}`;
        const response = await fetch(url, { signal: abort.signal, cache: "no-store", headers: credential() });
        if (response.status === 400 && viewer !== DEFAULT_VIEWER) { setViewer(DEFAULT_VIEWER); continue; }
        if (response.status === 401) {
          setConnected(false, "not logged in: open the login URL that flybot serve printed last (each one works once)");
          await sleep(5000);
          continue;
        }
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const next = await response.json();
        if (mine !== generation) continue;
        const first = lastSeen === null;
        state = next;
        version = next.version;
        if (first) {
          lastSeen = {};
          for (const m of state.messages) {
            const key = tsKey(m.ts);
            if (tsAfter(key, lastSeen[m.channel] || [0, 0])) lastSeen[m.channel] = key;
          }
        }
        setConnected(true);
        backoff = 500;
        render(first);
      } catch (_e) {
        if (mine !== generation) continue; // aborted because the viewer changed
        setConnected(false);
        version = -1; // the server may have restarted with a fresh (lower) version: ask for the state at once
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 5000);
      }
    }
  }

  function setViewer(id) {
    viewer = id;
    localStorage.setItem("flybot.viewer", id);
    generation += 1;
    version = -1;
    state = null; // nothing is drawn from the previous viewer's state (their DMs, modal, ephemerals)
    lastSeen = null;
    inFlight.clear();
    clickErrors.clear();
    shownModal = null;
    $("modal-root").replaceChildren();
    if (abort) abort.abort();
    if (selected === HOME) homeOpened();
  }

  $("viewer").addEventListener("change", (ev) => setViewer(ev.target.value));
  $("home-link").addEventListener("click", (ev) => { ev.preventDefault(); select(HOME); });
  $("composer").addEventListener("submit", (ev) => { ev.preventDefault(); send(); });
  $("composer-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); send(); }
  });
  // Until the first state arrives, show the stored viewer so the select is never empty.
  $("viewer").append(el("option", { value: viewer, text: viewer }));
  logIn().then(() => {
    if (selected === HOME) homeOpened();
    poll();
  });
})();
