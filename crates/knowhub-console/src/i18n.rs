//! The console's two languages. Every label goes through `t`, so a missing translation is a
//! compile-time match arm, not a silent English fallback scattered through templates.

/// The UI language: from `?lang=`, then the `knowhub_lang` cookie, then `Accept-Language`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The first language in an `Accept-Language` header that we speak (English otherwise).
    pub fn from_accept(header: &str) -> Lang {
        for part in header.split(',') {
            let tag = part.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            if tag.starts_with("zh") {
                return Lang::Zh;
            }
            if tag.starts_with("en") {
                return Lang::En;
            }
        }
        Lang::En
    }
}

macro_rules! labels {
    ($($key:ident => $en:literal, $zh:literal;)+) => {
        /// A label of the console.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[allow(non_camel_case_types)]
        pub enum L { $($key),+ }

        /// The label in `lang`.
        pub fn t(lang: Lang, l: L) -> &'static str {
            match (lang, l) {
                $((Lang::En, L::$key) => $en, (Lang::Zh, L::$key) => $zh,)+
            }
        }
    };
}

labels! {
    app => "KnowHub console", "KnowHub 控制台";
    dashboard => "Dashboard", "概览";
    pending => "Review queue", "待审核";
    disputed => "Disputed", "有争议";
    expired => "To re-confirm", "待重新确认";
    quarantined => "Quarantined", "已隔离";
    reconfirm => "Re-confirm", "重新确认";
    quarantine_note => "Held by a quarantine of its key or agent: lift it with `knowhub quarantine lift` (restore or reject all).", "因其密钥或智能体被隔离而暂停：用 `knowhub quarantine lift` 解除（全部恢复或拒绝）。";
    search => "Search", "搜索";
    keys => "Keys", "密钥";
    sign_in => "Sign in", "登录";
    sign_out => "Sign out", "退出";
    key => "API key (reviewer or admin)", "API 密钥（审核员或管理员）";
    signed_in_as => "Signed in as", "当前用户";
    local_operator => "local operator (no keys on this hub)", "本地操作员（此实例未启用密钥）";
    task => "Task", "任务";
    resource => "Resource", "资源";
    result => "Result", "结果";
    outcome => "Outcome", "结果类型";
    score => "Score", "评分";
    confidence => "Confidence", "置信度";
    agent => "Agent", "智能体";
    session => "Session", "会话";
    submitted_by => "Submitted by", "提交者";
    source => "Source messages", "来源消息";
    no_source => "No source messages kept (a manual submit, or already reviewed).", "没有保留来源消息（手动提交，或已审核）。";
    redactions => "Redactions", "已脱敏";
    flags => "Flags", "标记";
    nearest => "Nearest approved records", "最相近的已批准记录";
    no_nearest => "No similar approved record.", "没有相似的已批准记录。";
    merge => "Merge into this", "合并到此条";
    approve => "Approve", "批准";
    keep => "Keep", "保留";
    edit => "Edit", "编辑";
    save_approve => "Save and approve", "保存并批准";
    reject => "Reject", "拒绝";
    reason => "Reason (optional)", "原因（可选）";
    queue_empty => "Nothing waits for review.", "没有待审核的条目。";
    keyboard_help => "Keys: j/k move · a approve · e edit · r reject · m merge into the nearest", "快捷键：j/k 移动 · a 批准 · e 编辑 · r 拒绝 · m 合并到最相近的一条";
    relevance => "Relevance", "相关度";
    confirmations => "Confirmations", "确认数";
    feedback => "Feedback", "反馈";
    helped => "helped", "有帮助";
    failed => "failed", "失败";
    irrelevant => "irrelevant", "不相关";
    contested => "contested", "有冲突";
    no_results => "No relevant experience is known for this.", "没有相关的经验。";
    mode => "Mode", "模式";
    min_score => "Min. score", "最低评分";
    history => "History", "历史";
    content => "Content", "内容";
    contested_by => "Contested by", "冲突记录";
    status => "Status", "状态";
    votes => "Votes", "投票";
    records => "Records", "记录";
    successes => "Successes", "成功";
    failures => "Failures", "失败";
    partials => "Partial", "部分成功";
    o_success => "success", "成功";
    o_failure => "failure", "失败";
    o_partial => "partial", "部分成功";
    known_failures => "Known failures", "已知失败";
    playbook => "Playbook", "经验手册";
    written_playbook => "Written by the model", "模型撰写的手册";
    draft_playbook => "Draft with the model", "让模型撰写";
    stale => "stale: its records changed since; draft it again", "已过期：其记录已变化，请重新撰写";
    agents_get_written => "Agents get this written version.", "智能体获得这份撰写版本。";
    last_success => "Last success", "最近一次成功";
    top_experiences => "Top experiences", "最佳经验";
    none => "none", "无";
    totals => "Totals", "总计";
    approved => "Approved", "已批准";
    rejected => "Rejected", "已拒绝";
    week => "Week", "周";
    created => "Created", "新增";
    searches_per_day => "Searches per day", "每日搜索";
    webhooks => "Webhooks", "Webhook";
    last_status => "Last status", "最近状态";
    delivered => "Delivered", "已送达";
    sync_from => "Sync from other hubs", "从其他 Hub 同步";
    hub_url => "Hub", "Hub";
    read_changes => "Changes read", "已读变更";
    conflicts => "Conflicts", "冲突";
    no_answer => "no answer", "无应答";
    day => "Day", "日期";
    searches => "Searches", "搜索次数";
    found => "Found a result", "有结果";
    top_resources => "Top resources", "常用资源";
    per_agent => "Per agent", "按智能体";
    jobs => "Extraction jobs", "提取任务";
    tokens => "LLM tokens (in / out)", "LLM 令牌（输入/输出）";
    name => "Name", "名称";
    role => "Role", "角色";
    prefix => "Prefix", "前缀";
    reads => "Reads", "可读范围";
    quarantine => "Quarantine", "隔离";
    quarantine_help => "Everything a key or agent id (key/agent) wrote leaves search at once, and what it writes next is held too; restore or reject it all later.", "某个密钥或智能体（密钥/智能体）写入的全部内容立即退出搜索，之后写入的也会被暂停；之后可全部恢复或全部拒绝。";
    and_quarantine => "and quarantine what it wrote", "并隔离其写入的内容";
    key_kind => "key", "密钥";
    restore_all => "Restore all", "全部恢复";
    reject_all => "Reject all", "全部拒绝";
    done_quarantined => "Quarantined", "已隔离";
    done_lifted => "Quarantine lifted", "已解除隔离";
    writes => "Writes to", "写入范围";
    scope => "Scope", "范围";
    reads_hint => "* or org,team/…", "* 或 org,team/…";
    revoked => "Revoked", "已吊销";
    revoke => "Revoke", "吊销";
    create_key => "Create key", "创建密钥";
    new_key_once => "The new key, shown this once:", "新密钥（仅显示这一次）：";
    active => "active", "有效";
    done_approved => "Approved", "已批准";
    done_rejected => "Rejected", "已拒绝";
    done_merged => "Merged: it now confirms", "已合并，现为此条的确认：";
    done_revoked => "Key revoked", "密钥已吊销";
    open => "Open", "打开";
    language => "中文", "English";
    error => "Error", "错误";
    back => "Back to the queue", "返回待审核";
    total => "total", "共";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_picks_the_first_known() {
        assert_eq!(Lang::from_accept("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(Lang::from_accept("en-US,en;q=0.9,zh;q=0.8"), Lang::En);
        assert_eq!(Lang::from_accept("fr-FR,zh-TW;q=0.5"), Lang::Zh);
        assert_eq!(Lang::from_accept(""), Lang::En);
        assert_eq!(t(Lang::Zh, L::approve), "批准");
    }
}
