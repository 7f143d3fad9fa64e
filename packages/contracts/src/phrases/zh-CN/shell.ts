import type { Phrases } from '../types.js';

export const shell: Phrases['shell'] = {
  site_title: '用户管理后台',
  personal_center: '个人中心',
  logout: '退出登录',
  login: '登录',
  logout_confirm: '真的要注销登录吗？',
  settings: '页面设置',
  collapse: '收起菜单',
  expand: '展开菜单',
  language: '语言',
  loading: '加载中…',
  tab_actions: '标签操作',
  close_current: '关闭当前标签',
  close_right: '关闭右侧',
  close_left: '关闭左侧',
  close_all: '关闭全部',
  last_tab: '这是最后一个标签了，无法被关闭',
  no_left: '左侧没有标签',
  no_right: '右侧没有标签',
  close_tab: '关闭标签页',
};
